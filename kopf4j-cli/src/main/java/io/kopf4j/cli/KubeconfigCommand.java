package io.kopf4j.cli;

import io.fabric8.kubernetes.api.model.Config;
import io.fabric8.kubernetes.api.model.ConfigBuilder;
import io.fabric8.kubernetes.api.model.authentication.TokenRequest;
import io.fabric8.kubernetes.api.model.authentication.TokenRequestBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.ServiceAccountResource;
import io.kopf4j.OperatorException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Base64;
import java.util.EnumSet;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code kopf4j kubeconfig --service-account NAMESPACE/NAME}: a kubeconfig that authenticates as a
 * ServiceAccount, with a token of the TokenRequest API (as a pod's own token is made, bound to no
 * pod), for the same cluster as the kubeconfig it is run with. For rehearsing an operator under
 * exactly the RBAC its ServiceAccount is granted, on any cluster, local or not.
 *
 * <pre>
 * kopf4j kubeconfig --local-cluster dev --service-account operators/my-operator -o sa.kubeconfig
 * kopf4j run --kubeconfig sa.kubeconfig -n operators Handlers.java
 * </pre>
 */
@Command(name = "kubeconfig", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Prints a kubeconfig that authenticates as a ServiceAccount (a TokenRequest token).",
        footer = {"", "Examples:",
                "  kopf4j kubeconfig --local-cluster dev --service-account operators/my-operator -o sa.kubeconfig",
                "  kopf4j run --kubeconfig sa.kubeconfig -n operators Handlers.java   # under its RBAC only",
                "  kopf4j kubeconfig --service-account operators/my-operator --duration 10m > sa.kubeconfig",
                "",
                "The cluster and its CA are those of the kubeconfig used (--kubeconfig, $KUBECONFIG, ~/.kube/config);",
                "the context's namespace is the ServiceAccount's, as a pod's in-cluster configuration has it.",
                "Running it needs the permission to create serviceaccounts/token of that ServiceAccount."})
final class KubeconfigCommand implements Callable<Integer> {
    /** The API server's minimum for a TokenRequest's expiration. */
    private static final Duration SHORTEST = Duration.ofMinutes(10);

    @Option(names = "--service-account", required = true, paramLabel = "NAMESPACE/NAME",
            description = "The ServiceAccount to authenticate as.")
    String serviceAccount;

    @Option(names = "--duration", paramLabel = "DURATION", defaultValue = "1h",
            description = "How long the token is valid: 10m or more, e.g. 30m, 1h, 24h (default: 1h; the API server"
                    + " may cap it).")
    String duration;

    @Option(names = {"-o", "--output"}, paramLabel = "FILE",
            description = "Write the kubeconfig to this file (readable by its owner only) instead of printing it.")
    Path output;

    @Mixin
    ClusterOptions cluster;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws IOException {
        String[] parts = serviceAccount.split("/", -1);
        if (parts.length != 2 || parts[0].isBlank() || parts[1].isBlank()) {
            throw new OperatorException("--service-account " + serviceAccount + ": expected NAMESPACE/NAME, e.g. operators/my-operator");
        }
        Duration validity = validity();
        String yaml;
        try (KubernetesClient client = cluster.client()) {
            yaml = client.getKubernetesSerialization().asYaml(kubeconfig(client, parts[0], parts[1], validity));
        }
        if (output == null) {
            spec.commandLine().getOut().print(yaml);
            spec.commandLine().getOut().flush();
        } else {
            // Created anew, in one step, with its owner's permissions only: it holds a credential, and a symlink put
            // in its place meanwhile is refused (CREATE_NEW does not follow one), not written through.
            Files.deleteIfExists(output);
            try (SeekableByteChannel file = Files.newByteChannel(output, EnumSet.of(StandardOpenOption.CREATE_NEW,
                    StandardOpenOption.WRITE), PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")))) {
                file.write(ByteBuffer.wrap(yaml.getBytes(StandardCharsets.UTF_8)));
            } catch (UnsupportedOperationException e) {
                throw new OperatorException("--output " + output + ": its file system cannot make the file readable by its"
                        + " owner only; print the kubeconfig instead (no -o) and keep it safe");
            }
            spec.commandLine().getOut().println(output);
        }
        return 0;
    }

    private Duration validity() {
        Duration parsed;
        try {
            parsed = Duration.parse("PT" + duration.toUpperCase(Locale.ROOT));
        } catch (DateTimeParseException e) {
            throw new OperatorException("--duration " + duration + ": expected a duration such as 10m, 1h or 24h");
        }
        if (parsed.compareTo(SHORTEST) < 0) {
            throw new OperatorException("--duration " + duration + ": the API server issues tokens for 10m or more");
        }
        return parsed;
    }

    private static Config kubeconfig(KubernetesClient client, String namespace, String name, Duration validity) {
        ServiceAccountResource account = client.serviceAccounts().inNamespace(namespace).withName(name);
        String token;
        try {
            TokenRequest request = new TokenRequestBuilder().withNewSpec().withExpirationSeconds(validity.toSeconds())
                    .endSpec().build();
            token = account.tokenRequest(request).getStatus().getToken();
        } catch (KubernetesClientException e) {
            if (e.getCode() == 404) {   // asked without a GET, which the footer's one permission does not allow
                throw new OperatorException("no ServiceAccount " + namespace + "/" + name + " at " + client.getMasterUrl(), e);
            }
            throw new OperatorException("cannot make a token for the ServiceAccount " + namespace + "/" + name + ": "
                    + e.getMessage(), e);
        }
        io.fabric8.kubernetes.client.Config used = client.getConfiguration();
        String user = "system:serviceaccount:" + namespace + ":" + name;
        return new ConfigBuilder().withApiVersion("v1").withKind("Config")
                .addNewCluster().withName("cluster").withNewCluster().withServer(client.getMasterUrl().toString())
                .withCertificateAuthorityData(caData(used)).withInsecureSkipTlsVerify(used.isTrustCerts() ? true : null)
                .endCluster().endCluster()
                .addNewUser().withName(user).withNewUser().withToken(token).endUser().endUser()
                .addNewContext().withName(user).withNewContext().withCluster("cluster").withUser(user)
                .withNamespace(namespace).endContext().endContext()
                .withCurrentContext(user).build();
    }

    /** The CA the client trusts, as a kubeconfig holds it; null for the system's trust. */
    private static String caData(io.fabric8.kubernetes.client.Config used) {
        if (used.getCaCertData() != null && !used.getCaCertData().isBlank()) {
            return used.getCaCertData();
        }
        if (used.getCaCertFile() != null && !used.getCaCertFile().isBlank()) {
            try {
                return Base64.getEncoder().encodeToString(Files.readAllBytes(Path.of(used.getCaCertFile())));
            } catch (IOException e) {
                throw new OperatorException("cannot read the cluster's CA " + used.getCaCertFile() + ": " + e.getMessage(), e);
            }
        }
        return null;
    }
}
