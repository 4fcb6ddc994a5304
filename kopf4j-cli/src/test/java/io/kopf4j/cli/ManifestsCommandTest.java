package io.kopf4j.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.kopf4j.On;
import io.kopf4j.OperatorSettings;
import io.kopf4j.Permission;
import io.kopf4j.kits.webhooks.WebhookAutoServer;
import io.kopf4j.kits.webhooks.WebhookServer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code kopf4j manifests} without a cluster: the CRD file and the built-in resources resolve the handlers' resources. */
class ManifestsCommandTest {
    private static final String CRD = Path.of("../examples/crd.yaml").toString();

    @TempDir
    Path dir;

    @Permission(resources = "pods", verbs = "create")
    public static class Children {
        @On.Create("kopfexamples")
        public String create() {
            return "done";
        }
    }

    public static class Widgets {
        @On.Create("widgets")
        public void create() {
        }
    }

    /** A validating webhook served in the cluster by a fixed-port server named after the generated Service. */
    public static class Admission {
        @On.Startup
        public void configure(OperatorSettings settings) {
            settings.admission.server = new WebhookServer().port(9443).host("op.ops.svc");
            settings.admission.managed = "op.example.com";
        }

        @On.Validate("kopfexamples")
        public void validate() {
        }
    }

    /** No server set: kopf4j's choice in a pod, port 9443 published as the Service's host. */
    public static class AdmissionWithoutAServer {
        @On.Validate("kopfexamples")
        public void validate() {
        }
    }

    public static class AdmissionOnAFreePort {
        @On.Startup
        public void configure(OperatorSettings settings) {
            settings.admission.server = new WebhookServer().host("op.ops.svc");
        }

        @On.Validate("kopfexamples")
        public void validate() {
        }
    }

    public static class AdmissionInDevelopment {
        @On.Startup
        public void configure(OperatorSettings settings) {
            settings.admission.server = new WebhookAutoServer();
        }

        @On.Validate("kopfexamples")
        public void validate() {
        }
    }

    private static Main.Captured kopf4j(String... args) {
        return Main.capture(args);
    }

    /** The manifests of an operator named {@code name} in the namespace {@code ops}. */
    private static Main.Captured manifestsInOps(String name, Class<?> handlers, String... options) {
        List<String> args = new ArrayList<>(List.of("manifests", "--crd", CRD, "--name", name, "--operator-namespace", "ops"));
        args.addAll(List.of(options));
        args.add(handlers.getName());
        return kopf4j(args.toArray(String[]::new));
    }

    private static List<String> lines(String text, String prefix) {
        return text.lines().filter(line -> line.startsWith(prefix)).toList();
    }

    @Test
    void explicitNamespacesGetARoleEachAndTheDeploymentRunsWithTheSameOptions() {
        Main.Captured result = kopf4j("manifests", "--crd", CRD, "--operator-namespace", "ops", "--image", "example.com/op:1",
                "-n", "team-a", "-n", "team-b", "--standalone", Children.class.getName());
        assertThat(result.code()).as(result.err()).isZero();
        assertThat(result.out())
                .contains("kind: ServiceAccount", "kind: Role\nmetadata:\n  name: children\n  namespace: team-a\n",
                        "kind: Role\nmetadata:\n  name: children\n  namespace: team-b\n", "kind: RoleBinding",
                        "kind: CustomResourceDefinition", "image: example.com/op:1")
                .contains("# @Permission on Children: what its handlers do themselves\n- apiGroups: [\"\"]\n  resources: [pods]\n"
                        + "  verbs: [create]\n")
                .contains(String.join("\n        - ", "args:", "run", "--namespace=team-a", "--namespace=team-b", "--standalone",
                        "--health-probe-bind-address=:8081", "--metrics-bind-address=:8443", "--metrics-secure",
                        "--log-format=json",
                        Children.class.getName()) + "\n")
                // Only the CRDs' watch is cluster-wide: no namespace patterns, no peering.
                .contains("kind: ClusterRole\n").doesNotContain("resources: [namespaces]", "kopfpeerings", "*");
    }

    /** Namespace names that YAML reads as numbers or booleans when plain: every namespace must come back a string. */
    @Test
    void namespacesThatLookLikeNumbersOrBooleansAreWrittenAsStrings() throws Exception {
        Main.Captured result = kopf4j("manifests", "--crd", CRD, "--operator-namespace", "0x1f", "--image", "example.com/op:1",
                "-n", "123", "-n", "1e3", "-n", "on", "--standalone", Children.class.getName());
        assertThat(result.code()).as(result.err()).isZero();
        List<String> namespaces = new ArrayList<>();
        for (String document : result.out().split("(?m)^---\n")) {
            JsonNode object = Manifests.YAML.readTree(document);
            object.findValues("namespace").forEach(namespace -> {
                assertThat(namespace.isTextual()).as("a namespace in %s read back as %s", object.path("kind"), namespace).isTrue();
                namespaces.add(namespace.asText());
            });
        }
        assertThat(namespaces).contains("0x1f", "123", "1e3", "on");
    }

    @Test
    void anUnresolvableResourceIsOneErrorNamingTheHandlerAndSuggestingCrd() {
        Main.Captured result = kopf4j("manifests", "--crd", CRD, Widgets.class.getName());
        assertThat(result.code()).isEqualTo(1);
        assertThat(result.err()).contains("kopf4j: error: Handler ManifestsCommandTest.Widgets.create()".replace("ManifestsCommandTest.", "")
                + ": its resource widgets cannot be resolved: pass its CRD with --crd FILE");
    }

    @Test
    void anOutputDirectoryGetsOneFilePerKindAndAKustomization() throws Exception {
        Main.Captured result = kopf4j("manifests", "--crd", CRD, "-o", dir.toString(), Children.class.getName());
        assertThat(result.code()).as(result.err()).isZero();
        assertThat(Files.readString(dir.resolve("kustomization.yaml"))).isEqualTo("""
                apiVersion: kustomize.config.k8s.io/v1beta1
                kind: Kustomization
                resources:
                - service-account.yaml
                - cluster-role.yaml
                - cluster-role-binding.yaml
                - deployment.yaml
                - service.yaml
                - custom-resource-definition.yaml
                """);
        assertThat(Files.readString(dir.resolve("cluster-role.yaml"))).contains("resources: [clusterkopfpeerings]");
    }

    @Test
    void aWebhookServerWithAFixedPortGetsAServiceToThePodsNamedPort() {
        Main.Captured result = manifestsInOps("op", Admission.class);
        assertThat(result.code()).as(result.err()).isZero();
        assertThat(result.err()).doesNotContain("warning");
        assertThat(result.out())
                .contains("""
                        apiVersion: v1
                        kind: Service
                        metadata:
                          name: op
                          namespace: ops
                        spec:
                          selector:
                            app: op
                          ports:
                          - name: webhook
                            protocol: TCP
                            port: 9443
                            targetPort: webhook
                        """)
                .contains("        - name: webhook\n          containerPort: 9443\n")
                .contains("resources: [validatingwebhookconfigurations]\n  verbs: [create, patch]\n");
    }

    /** A startup handler that configures the settings, whose success the commands run (and Kopf logs at INFO). */
    public static class Configured {
        @On.Startup
        public void configure(OperatorSettings settings) {
            settings.peering.standalone = true;
        }

        @On.Create("kopfexamples")
        public void create() {
        }
    }

    @Test
    void commandsThatPrintAResultPrintNothingElseUnlessVerbose() throws Exception {
        for (String command : List.of("manifests", "check-rbac")) {
            // Both streams: this module's logback-test.xml, on the class path here, logs to stdout (the command: stderr).
            Process quiet = kopf4jProcess(command, Configured.class.getName());
            String quietOutput = new String(quiet.getInputStream().readAllBytes());
            assertThat(quiet.waitFor()).as(command).isIn(0, 1);   // check-rbac reaches no cluster here: its error only
            assertThat(quietOutput).as(command).doesNotContain("Activity", "INFO");
            Process verbose = kopf4jProcess(command, "-v", Configured.class.getName());
            String verboseOutput = new String(verbose.getInputStream().readAllBytes());
            verbose.waitFor();
            assertThat(verboseOutput).as(command).contains("Activity 'configure' succeeded.");
        }
    }

    private Process kopf4jProcess(String command, String... args) throws IOException {
        List<String> line = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), Main.class.getName(), command));
        // manifests works offline from the CRD; check-rbac needs a cluster, and runs the startup handlers before it fails.
        line.addAll(command.equals("manifests") ? List.of("--crd", CRD) : List.of("--kubeconfig", dir.resolve("none").toString()));
        line.addAll(List.of(args));
        return new ProcessBuilder(line).redirectErrorStream(true).start();
    }

    @Test
    void withoutAServerThePodIsToldTheServicesHostAndServesOnItsPort() {
        Main.Captured result = manifestsInOps("op", AdmissionWithoutAServer.class);
        assertThat(result.code()).as(result.err()).isZero();
        assertThat(result.err()).isEmpty();
        assertThat(result.out())
                .contains("kind: Service\nmetadata:\n  name: op\n", "    port: 9443\n    targetPort: webhook\n")
                .contains("        - name: webhook\n          containerPort: 9443\n")
                .contains("        - name: KOPF4J_WEBHOOK_HOST\n          value: op.ops.svc\n");
        assertThat(manifestsInOps("op", Widgets.class).out()).doesNotContain("KOPF4J_WEBHOOK_HOST", "name: webhook");
    }

    @Test
    void aWebhookServerOnAFreePortIsOneErrorNamingTheSetting() {
        Main.Captured result = manifestsInOps("op", AdmissionOnAFreePort.class);
        assertThat(result.code()).isEqualTo(1);
        assertThat(lines(result.err(), "kopf4j: error: ")).containsExactly(
                "kopf4j: error: settings.admission.server: a fixed port is needed for the Service in front of it,"
                        + " e.g. new WebhookServer().port(9443).host(\"op.ops.svc\")");
    }

    @Test
    void aWebhookServerWithAnotherHostIsWarnedOfTheServicesName() {
        Main.Captured result = manifestsInOps("other", Admission.class);
        assertThat(result.code()).as(result.err()).isZero();
        assertThat(lines(result.err(), "kopf4j: warning: ")).containsExactly(
                "kopf4j: warning: settings.admission.server's host is op.ops.svc: for the API server to reach the generated"
                        + " Service, it should be host(\"other.ops.svc\")");
        assertThat(result.out()).contains("kind: Service\n");
    }

    @Test
    @SuppressWarnings("unchecked")
    void everyGeneratedPodIsAdmittedByPodSecurityRestrictedWithARootFilesystemReadOnly() throws Exception {
        List<Main.Captured> results = List.of(manifestsInOps("op", Children.class),
                manifestsInOps("op", Admission.class, "--leader-election", "--replicas", "2"),
                manifestsInOps("op", Children.class, "--shards", "3", "--all-namespaces"));
        for (Main.Captured result : results) {
            assertThat(result.code()).as(result.err()).isZero();
            List<Map<String, Object>> deployments = new ArrayList<>();
            try (MappingIterator<Object> documents = new YAMLMapper().readerFor(Object.class).readValues(result.out())) {
                documents.forEachRemaining(document -> {
                    if (document instanceof Map<?, ?> map && "Deployment".equals(map.get("kind"))) {
                        deployments.add((Map<String, Object>) map);
                    }
                });
            }
            assertThat(deployments).singleElement().satisfies(deployment -> {
                Map<String, Object> pod = (Map<String, Object>) ((Map<String, Object>) ((Map<String, Object>) deployment.get("spec"))
                        .get("template")).get("spec");
                assertThat(PodSecurityRestricted.violations(pod)).isEmpty();
                Map<String, Object> container = ((List<Map<String, Object>>) pod.get("containers")).getFirst();
                assertThat((Map<String, Object>) container.get("securityContext")).containsEntry("readOnlyRootFilesystem", true);
                assertThat(container.get("volumeMounts")).isEqualTo(List.of(Map.of("name", "tmp", "mountPath", "/tmp")));
            });
        }
    }

    @Test
    void theRestrictedChecksFindWhatTheEarlierDeploymentLacked() {
        Map<String, Object> earlier = Map.of("securityContext", Map.of("runAsNonRoot", true), "containers", List.of(Map.of(
                "name", "operator", "securityContext", Map.of("allowPrivilegeEscalation", false))));
        assertThat(PodSecurityRestricted.violations(earlier)).containsExactly(
                "container operator: seccompProfile.type must be RuntimeDefault or Localhost (in the pod's or the container's"
                        + " securityContext), is null",
                "container operator: securityContext.capabilities.drop must include ALL");
        assertThat(PodSecurityRestricted.violations(Map.of("hostNetwork", true, "volumes", List.of(Map.of("name", "h",
                "hostPath", Map.of("path", "/"))), "containers", List.of(Map.of("name", "c", "securityContext", Map.of(
                "privileged", true, "capabilities", Map.of("add", List.of("SYS_ADMIN")), "runAsUser", 0))))))
                .contains("spec.hostNetwork must not be true", "container c: securityContext.privileged must not be true",
                        "container c: securityContext.capabilities.add may hold NET_BIND_SERVICE only, not SYS_ADMIN",
                        "container c: securityContext.runAsUser must not be 0")
                .anyMatch(violation -> violation.startsWith("volume h: type [hostPath] is not allowed"));
    }

    @Test
    void metricsAreSecureByDefaultWithTheirReviewsReaderRoleAndService() {
        Main.Captured secure = manifestsInOps("op", Children.class);
        assertThat(secure.code()).as(secure.err()).isZero();
        assertThat(secure.out())
                .contains("# secure metrics (--metrics-secure): authenticating and authorising each scraper\n"
                        + "- apiGroups: [authentication.k8s.io]\n  resources: [tokenreviews]\n  verbs: [create]\n")
                .contains("- apiGroups: [authorization.k8s.io]\n  resources: [subjectaccessreviews]\n  verbs: [create]\n")
                .contains("kind: ClusterRole\nmetadata:\n  name: op-metrics-reader\n", "- nonResourceURLs: [/metrics]\n  verbs: [get]\n")
                .contains("- --metrics-bind-address=:8443\n        - --metrics-secure\n")
                .contains("kind: Service\nmetadata:\n  name: op-metrics\n  namespace: ops\n  labels:\n    app: op\n",
                        "  - name: https\n    protocol: TCP\n    port: 8443\n    targetPort: metrics\n");

        Main.Captured plain = manifestsInOps("op", Children.class, "--no-metrics-secure");
        assertThat(plain.code()).as(plain.err()).isZero();
        assertThat(plain.out()).contains("- --metrics-bind-address=:8080\n", "  - name: http\n    protocol: TCP\n    port: 8080\n")
                .doesNotContain("tokenreviews", "subjectaccessreviews", "metrics-reader", "--metrics-secure");
    }

    @Test
    void aDevelopmentServerGetsNoServiceAndAWarning() {
        Main.Captured result = manifestsInOps("op", AdmissionInDevelopment.class);
        assertThat(result.code()).as(result.err()).isZero();
        assertThat(lines(result.err(), "kopf4j: warning: ")).containsExactly(
                "kopf4j: warning: settings.admission.server is a development server (WebhookAutoServer), so no Service is"
                        + " generated for it; in a cluster, a WebhookServer with a fixed port and host(\"op.ops.svc\") is"
                        + " served by the generated Service");
        assertThat(result.out()).contains("kind: Deployment\n", "kind: Service\nmetadata:\n  name: op-metrics\n")
                .doesNotContain("kind: Service\nmetadata:\n  name: op\n", "name: webhook");
    }

    @Test
    void theServiceGoesToItsOwnFileInTheKustomization() throws Exception {
        Main.Captured result = manifestsInOps("op", Admission.class, "-o", dir.toString());
        assertThat(result.code()).as(result.err()).isZero();
        assertThat(Files.readString(dir.resolve("kustomization.yaml"))).contains("- deployment.yaml\n- service.yaml\n");
        assertThat(Files.readString(dir.resolve("service.yaml"))).contains("kind: Service\n", "targetPort: webhook\n");
    }
}
