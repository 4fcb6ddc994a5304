package io.kopf4j.envtest;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * A local API server's audit log (kube-apiserver's {@code --audit-log-path}), at the Metadata level
 * for every request: what {@link LocalCluster#apiCalls(String)} reads. Kept in the cluster's state
 * directory; written as each request is answered ({@code --audit-log-mode=blocking}).
 */
final class AuditLog {
    /** Turns the audit log on for the clusters started in this JVM: {@code -Dkopf4j.envtest.audit=true}. */
    static final String PROPERTY = "kopf4j.envtest.audit";
    private static final String POLICY = """
            apiVersion: audit.k8s.io/v1
            kind: Policy
            omitStages: [RequestReceived]
            rules:
            - level: Metadata
            """;
    private static final ObjectMapper JSON = new ObjectMapper();

    private final Path log;
    private final Path policy;

    private AuditLog(Path dir) {
        this.log = dir.resolve("audit.log");
        this.policy = dir.resolve("audit-policy.yaml");
    }

    /** An audit log in this directory, if {@link #PROPERTY} asks for one; else null. */
    static AuditLog ifAsked(Path dir) throws IOException {
        if (!Boolean.getBoolean(PROPERTY)) {
            return null;
        }
        AuditLog audit = new AuditLog(dir);
        Files.writeString(audit.policy, POLICY);
        return audit;
    }

    /** The API server's flags that keep it. */
    List<String> apiServerFlags() {
        return List.of("--audit-policy-file=" + policy, "--audit-log-path=" + log, "--audit-log-format=json",
                "--audit-log-mode=blocking");
    }

    /** The user's requests answered so far (a watch as soon as it streams), each kind of request once, in order. */
    List<ApiCall> calls(String user) {
        return List.copyOf(counts(user).keySet());
    }

    /** The user's requests answered so far, each kind with how many times, in the order of the first. */
    Map<ApiCall, Long> counts(String user) {
        if (!Files.exists(log)) {
            return Map.of();
        }
        try (Stream<String> lines = Files.lines(log)) {
            return lines.map(AuditLog::event)
                    .filter(event -> user.equals(event.path("user").path("username").asText()))
                    .filter(event -> event.path("stage").asText().startsWith("Response"))
                    .map(AuditLog::call)
                    .collect(Collectors.groupingBy(Function.identity(), LinkedHashMap::new, Collectors.counting()));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the audit log " + log, e);
        }
    }

    private static JsonNode event(String line) {
        try {
            return JSON.readTree(line);
        } catch (IOException e) {
            throw new UncheckedIOException("not an audit event: " + line, e);
        }
    }

    private static ApiCall call(JsonNode event) {
        String verb = event.path("verb").asText();
        int code = event.path("responseStatus").path("code").asInt();
        JsonNode ref = event.get("objectRef");
        if (ref == null) {
            String uri = event.path("requestURI").asText();
            return new ApiCall(verb, null, uri.contains("?") ? uri.substring(0, uri.indexOf('?')) : uri, null, code);
        }
        String resource = ref.path("resource").asText() + (ref.hasNonNull("subresource") ? "/" + ref.get("subresource").asText() : "");
        return new ApiCall(verb, ref.path("apiGroup").asText(""), resource,
                ref.hasNonNull("namespace") ? ref.get("namespace").asText() : null, code);
    }
}
