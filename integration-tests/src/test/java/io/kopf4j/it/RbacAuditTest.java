package io.kopf4j.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.ServiceAccountBuilder;
import io.fabric8.kubernetes.api.model.authentication.TokenRequestBuilder;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBindingBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.kopf4j.On;
import io.kopf4j.OperatorSettings;
import io.kopf4j.cli.Main;
import io.kopf4j.envtest.ApiCall;
import io.kopf4j.envtest.LocalCluster;
import io.kopf4j.envtest.LocalClusterExtension;
import io.kopf4j.envtest.RbacGrants;
import io.kopf4j.envtest.TemporaryNamespace;
import io.kopf4j.kits.webhooks.WebhookAutoServer;
import io.kopf4j.testing.KopfRunner;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The features that add RBAC rules, each run under the RBAC that {@code kopf4j manifests} generates
 * for it, and every API call the operator made (the API server's audit log) held against those rules:
 * no call outside them (the crash loop of a rule too few), no rule that no call used (a rule too
 * many), but for those that only some runs use, named with why. The examples do the same for every
 * example (examples/support/GeneratedRbac.java); here are the options they do not use: namespace
 * patterns, leader election, sharding, secure metrics, and managed webhooks of one kind only.
 */
@ExtendWith(LocalClusterExtension.class)
class RbacAuditTest {
    private static final Duration WAIT = Duration.ofSeconds(60);
    /** How long the audit log may take to show the operator's last requests (its watches' ends) after its stop. */
    private static final Duration AUDIT_LAG = Duration.ofSeconds(10);
    private static final String NAME = "audited";
    /** Used only to count a repeated identical Event: a run that posts none twice does not use it. */
    private static final Map<String, String> EVENT_REPEATS = Map.of("patch events in NAMESPACE", "no Event is posted twice in this run",
            "patch events (cluster-wide)", "no Event is posted twice in this run");

    public static class Handlers {
        @On.Create("kopfexamples")
        public String create() {
            return "created";
        }

        @On.Delete("kopfexamples")
        public void delete() {
        }
    }

    /** A validating webhook only, with managed configurations: the engine keeps both kinds (Kopf's), so the RBAC must. */
    public static class ValidatingOnly {
        @On.Startup
        public void configure(OperatorSettings settings) {
            settings.admission.server = new WebhookAutoServer();
            settings.admission.managed = "audited-" + System.getenv().getOrDefault("RBAC_AUDIT_SUFFIX", "x") + ".kopf.dev";
        }

        @On.Validate(value = "kopfexamples", labels = "kopf4j-it-rbac-audit")
        public void validate() {
        }

        @On.Create("kopfexamples")
        public String create() {
            return "created";
        }
    }

    @Test
    void namespacePatternsLeaderElectionAndSecureMetricsUseExactlyTheirRules(LocalCluster cluster, TemporaryNamespace namespace)
            throws Exception {
        String ns = namespace.name();
        OperatorFixture fixture = new OperatorFixture(cluster, namespace);   // the CRD, before the manifests resolve it
        String[] options = {"-n", ns + "*", "--standalone", "--leader-election", "--leader-election-namespace=" + ns,
                "--metrics-secure"};
        // The manifests' metrics port is their default (their Service cannot have port 0); the run binds a port of
        // the system's choice, read back from its log, as no port picked free beforehand stays free (another test
        // JVM may take it meanwhile). The port changes no RBAC rule.
        Path manifests = generate(cluster, ns, Handlers.class, options);
        String scraper = scraper(cluster, ns);
        String[] runOptions = Stream.concat(Stream.of(options), Stream.of("--metrics-bind-address=127.0.0.1:0"))
                .toArray(String[]::new);
        try (KopfRunner runner = run(cluster, ns, Handlers.class, runOptions)) {
            exercise(fixture, runner);
            assertThat(scrape(metricsPort(runner), scraper)).isEqualTo(200);
        }
        assertCallsMatchRules(cluster, manifests, ns, EVENT_REPEATS);
    }

    @Test
    void shardingUsesExactlyItsRules(LocalCluster cluster, TemporaryNamespace namespace) throws Exception {
        String ns = namespace.name();
        OperatorFixture fixture = new OperatorFixture(cluster, namespace);   // the CRD, before the manifests resolve it
        String[] options = {"-n", ns, "--standalone", "--no-metrics-secure", "--shards", "1", "--shard-namespace", ns};
        Path manifests = generate(cluster, ns, Handlers.class, options);
        try (KopfRunner runner = run(cluster, ns, Handlers.class, options)) {
            exercise(fixture, runner);
        }
        Map<String, String> mayBeUnused = new java.util.HashMap<>(EVENT_REPEATS);
        mayBeUnused.put("delete coordination.k8s.io/leases in NAMESPACE", "the Leases of replicas that are gone are deleted;"
                + " this run has one replica, which lives");
        assertCallsMatchRules(cluster, manifests, ns, mayBeUnused);
    }

    @Test
    void managedWebhooksOfOneKindUseExactlyTheirRules(LocalCluster cluster, TemporaryNamespace namespace) throws Exception {
        String ns = namespace.name();
        OperatorFixture fixture = new OperatorFixture(cluster, namespace);   // the CRD, before the manifests resolve it
        String[] options = {"-n", ns, "--standalone", "--no-metrics-secure"};
        Path manifests = generate(cluster, ns, ValidatingOnly.class, options);
        try (KopfRunner runner = run(cluster, ns, ValidatingOnly.class, options)) {
            fixture.examples().create("ex", Map.of("a", 1), Map.of(), Map.of("kopf4j-it-rbac-audit", "yes"));
            await().atMost(WAIT).until(() -> "created".equals(fixture.examples().status("ex").get("create")));
            assertThat(runner.output()).contains("Reconfiguring the validating webhook", "Reconfiguring the mutating webhook");
        }
        assertCallsMatchRules(cluster, manifests, ns, EVENT_REPEATS);
    }

    /** Creates, updates and deletes an object, each handled, and waits for the Events of it. */
    private static void exercise(OperatorFixture fixture, KopfRunner runner) {
        KopfExamples examples = fixture.examples();
        examples.create("ex", Map.of("a", 1));
        await().atMost(WAIT).until(() -> "created".equals(examples.status("ex").get("create")));
        examples.delete("ex");
        await().atMost(WAIT).until(() -> runner.output().contains(fixture.about("ex") + "Handler 'delete' succeeded."));
        await().atMost(WAIT).until(() -> !examples.exists("ex"));
    }

    /** The manifests of the handlers with these run options, applied (but the Deployment: no kubelet runs it). */
    private static Path generate(LocalCluster cluster, String namespace, Class<?> handlers, String... options) throws Exception {
        Path dir = Files.createTempDirectory("manifests");
        List<String> args = new ArrayList<>(List.of("manifests", "--kubeconfig", cluster.kubeconfig().toString(), "--name", NAME,
                "--operator-namespace", namespace, "--image", "example.com/op:1", "-o", dir.toString()));
        args.addAll(List.of(options));
        args.add(handlers.getName());
        Main.Captured result = Main.capture(args.toArray(String[]::new));
        assertThat(result.code()).as(result.err()).isZero();
        try (Stream<Path> files = Files.list(dir)) {
            cluster.apply(files.filter(file -> !Set.of("kustomization.yaml", "deployment.yaml").contains(file.getFileName().toString()))
                    .sorted().toArray(Path[]::new));
        }
        return dir;
    }

    private static KopfRunner run(LocalCluster cluster, String namespace, Class<?> handlers, String... options) {
        List<String> args = new ArrayList<>(List.of("run", "-v"));
        args.addAll(List.of(options));
        args.add(handlers.getName());
        KopfRunner runner = KopfRunner.start(cluster.kubeconfigForServiceAccount(namespace, NAME), WAIT, args.toArray(String[]::new));
        await().atMost(WAIT).until(() -> runner.output().contains("handler(s)"));
        return runner;
    }

    private static void assertCallsMatchRules(LocalCluster cluster, Path manifests, String namespace, Map<String, String> mayBeUnused)
            throws Exception {
        List<Path> rbac;
        try (Stream<Path> files = Files.list(manifests)) {
            rbac = files.filter(file -> file.getFileName().toString().matches(".*role(-binding)?\\.yaml")).toList();
        }
        RbacGrants grants = RbacGrants.boundTo(cluster.client(), rbac, namespace, NAME);
        List<String> excused = mayBeUnused.keySet().stream().map(grant -> grant.replace("NAMESPACE", namespace)).toList();
        List<ApiCall> calls = grants.settledCalls(cluster, "system:serviceaccount:" + namespace + ":" + NAME, excused, AUDIT_LAG);
        assertThat(grants.differences(calls, excused)).as("the generated RBAC against the requests (the grants that may be"
                + " unused, and why: %s); the requests: %s", mayBeUnused, calls).isEmpty();
        Set<String> unused = new TreeSet<>(grants.unused(calls).stream().map(RbacGrants.Grant::toString).toList());
        System.out.printf("RBAC of %s: %d requests, all within its %d generated grants; unused: %s%n", namespace, calls.size(),
                grants.grants().size(), unused.isEmpty() ? "none" : unused);
    }

    /** A ServiceAccount bound to the generated metrics-reader ClusterRole; its token. */
    private static String scraper(LocalCluster cluster, String namespace) {
        KubernetesClient admin = cluster.client();
        admin.serviceAccounts().inNamespace(namespace).resource(new ServiceAccountBuilder().withNewMetadata().withName("scraper")
                .endMetadata().build()).create();
        admin.rbac().clusterRoleBindings().resource(new ClusterRoleBindingBuilder().withNewMetadata().withName(namespace + "-scraper")
                .endMetadata().withNewRoleRef("rbac.authorization.k8s.io", "ClusterRole", NAME + "-metrics-reader")
                .addNewSubject().withKind("ServiceAccount").withName("scraper").withNamespace(namespace).endSubject().build()).create();
        return admin.serviceAccounts().inNamespace(namespace).withName("scraper")
                .tokenRequest(new TokenRequestBuilder().withNewSpec().withExpirationSeconds(3600L).endSpec().build())
                .getStatus().getToken();
    }

    private static int scrape(int port, String token) throws Exception {

        try (HttpClient client = HttpClient.newBuilder().sslContext(TrustingTls.context()).build()) {
            return client.send(HttpRequest.newBuilder(URI.create("https://127.0.0.1:" + port + "/metrics"))
                    .header("Authorization", "Bearer " + token).timeout(Duration.ofSeconds(10)).build(),
                    HttpResponse.BodyHandlers.discarding()).statusCode();
        }
    }

    /** The port of the metrics endpoint, as the operator logged it once listening. */
    private static int metricsPort(KopfRunner runner) {
        Pattern logged = Pattern.compile("Metrics at https://127\\.0\\.0\\.1:(\\d+)/metrics");
        await().atMost(WAIT).until(() -> logged.matcher(runner.output()).find());
        Matcher matcher = logged.matcher(runner.output());
        assertThat(matcher.find()).isTrue();
        return Integer.parseInt(matcher.group(1));
    }
}
