package io.kopf4j.it;

import io.kopf4j.structs.Json;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The API server's own record of every request (its audit log, at the Metadata level): who asked
 * for what, and what was answered. What an operator really does, read from the server rather than
 * from the operator's code, to hold against the RBAC it is given.
 *
 * <pre>{@code
 * ApiAudit audit = ApiAudit.in(Files.createTempDirectory("audit"));
 * LocalCluster cluster = LocalCluster.start(audit.apiServerFlags());
 * List<ApiAudit.Call> calls = audit.calls("system:serviceaccount:ns:op");
 * }</pre>
 */
final class ApiAudit {
    private static final String POLICY = """
            apiVersion: audit.k8s.io/v1
            kind: Policy
            omitStages: [RequestReceived]
            rules:
            - level: Metadata
            """;

    /**
     * One request as the API server recorded it.
     *
     * @param verb {@code get}, {@code list}, {@code watch}, {@code create}, {@code patch}, {@code update}, {@code delete}, ...
     * @param group the API group, empty for the core group; null for a non-resource request ({@code /apis})
     * @param resource the resource's plural, with {@code /subresource} if any; the path for a non-resource request
     * @param namespace the namespace, or null
     * @param code the HTTP status answered
     */
    record Call(String verb, String group, String resource, String namespace, int code) {
        boolean nonResource() {
            return group == null;
        }

        @Override
        public String toString() {
            return verb + " " + (nonResource() ? resource : (group.isEmpty() ? "" : group + "/") + resource
                    + (namespace == null ? "" : " in " + namespace)) + " -> " + code;
        }
    }

    private final Path log;
    private final Path policy;

    private ApiAudit(Path dir) {
        this.log = dir.resolve("audit.log");
        this.policy = dir.resolve("audit-policy.yaml");
    }

    /** An audit log kept in this directory. */
    static ApiAudit in(Path dir) {
        ApiAudit audit = new ApiAudit(dir);
        try {
            Files.writeString(audit.policy, POLICY);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return audit;
    }

    /** The kube-apiserver's flags that keep this log. */
    List<String> apiServerFlags() {
        return List.of("--audit-policy-file=" + policy, "--audit-log-path=" + log, "--audit-log-format=json",
                "--audit-log-mode=blocking");
    }

    /** Every request of this user so far, in order; answered ones only (a watch when it ends or starts streaming). */
    @SuppressWarnings("unchecked")
    List<Call> calls(String user) {
        try (var lines = Files.lines(log)) {
            return lines.map(Json::parseMap)
                    .filter(event -> event.get("user") instanceof Map<?, ?> who && user.equals(who.get("username")))
                    .filter(event -> "ResponseComplete".equals(event.get("stage")) || "ResponseStarted".equals(event.get("stage")))
                    .map(event -> {
                        Map<String, Object> ref = (Map<String, Object>) event.get("objectRef");
                        Map<String, Object> status = (Map<String, Object>) event.getOrDefault("responseStatus", Map.of());
                        int code = status.get("code") instanceof Number number ? number.intValue() : 0;
                        String verb = String.valueOf(event.get("verb"));
                        if (ref == null) {
                            String uri = String.valueOf(event.get("requestURI"));
                            return new Call(verb, null, uri.contains("?") ? uri.substring(0, uri.indexOf('?')) : uri, null, code);
                        }
                        String resource = String.valueOf(ref.get("resource"))
                                + (ref.get("subresource") == null ? "" : "/" + ref.get("subresource"));
                        return new Call(verb, Objects.toString(ref.get("apiGroup"), ""), resource, (String) ref.get("namespace"), code);
                    })
                    .distinct()
                    .toList();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the audit log " + log, e);
        }
    }
}
