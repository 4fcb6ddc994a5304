package io.kopf4j.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kopf4j.Handler;
import io.kopf4j.On;
import io.kopf4j.Operator;
import io.kopf4j.OperatorSettings;
import io.kopf4j.envtest.LocalCluster;
import io.kopf4j.envtest.LocalClusterExtension;
import io.kopf4j.envtest.TemporaryNamespace;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Kopf's liveness endpoint and controller-runtime's /healthz and /readyz. */
@ExtendWith(LocalClusterExtension.class)
class ProbesTest {
    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    static final AtomicInteger PROBED = new AtomicInteger();

    record Reply(int status, String body) {
    }

    static Reply get(InetSocketAddress address, String path) throws IOException, InterruptedException {
        HttpResponse<String> response = HTTP.send(HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + address.getPort() + path)).build(), HttpResponse.BodyHandlers.ofString());
        return new Reply(response.statusCode(), response.body());
    }

    /** Where an operator run from the command line with {@code --health-probe-bind-address HOST:0} serves its probes. */
    static InetSocketAddress healthProbes(String output) {
        Matcher matcher = Pattern.compile("Health probes at http://([^:]+):(\\d+)/healthz").matcher(output);
        if (!matcher.find()) {
            throw new IllegalStateException("the operator logged no address of its health probes");
        }
        return new InetSocketAddress(matcher.group(1), Integer.parseInt(matcher.group(2)));
    }

    @Test
    void readinessWaitsForTheInitialListingAndChecksReportByName(LocalCluster cluster, TemporaryNamespace namespace)
            throws Exception {
        OperatorFixture fixture = new OperatorFixture(cluster, namespace);
        AtomicBoolean database = new AtomicBoolean(false);
        // The operator's user may not list at first: the initial listing cannot complete until granted.
        try (Operator operator = fixture.operator().kubeconfig(cluster.kubeconfigFor("prober"))
                .settings(withoutPreflight())   // it starts without the permission to list, granted later
                .handler(Handler.create("kopfexamples").id("create").handle(context -> "created"))
                .healthProbeAddress("127.0.0.1:0")
                .readinessCheck("database", () -> {
                    if (!database.get()) {
                        throw new IllegalStateException("no connection");
                    }
                })
                .build()) {
            operator.start();
            InetSocketAddress address = operator.healthProbeAddress();
            assertThat(get(address, "/healthz")).isEqualTo(new Reply(200, "ok"));
            assertThat(get(address, "/readyz")).isEqualTo(new Reply(500,
                    "[+]resources-served ok\n[-]watch-cache-sync failed: reason withheld\n"
                            + "[-]database failed: reason withheld\nreadyz check failed\n"));
            assertThat(get(address, "/readyz?verbose").body()).contains(
                    "[-]watch-cache-sync failed: the initial listing of the watched resources is not complete",
                    "[-]database failed: no connection");

            fixture.grant("prober", "get", "list", "watch", "patch");
            database.set(true);
            await().atMost(WAIT).untilAsserted(() -> assertThat(get(address, "/readyz").status()).isEqualTo(200));
            assertThat(get(address, "/readyz?verbose")).isEqualTo(new Reply(200,
                    "[+]resources-served ok\n[+]watch-cache-sync ok\n[+]database ok\nreadyz check passed\n"));

            database.set(false);
            assertThat(get(address, "/readyz/database")).isEqualTo(new Reply(500, "internal server error: no connection\n"));
            assertThat(get(address, "/readyz/watch-cache-sync")).isEqualTo(new Reply(200, "ok"));
            assertThat(get(address, "/readyz?exclude=database&verbose")).isEqualTo(new Reply(200,
                    "[+]resources-served ok\n[+]watch-cache-sync ok\n[+]database excluded: ok\nreadyz check passed\n"));
            assertThat(get(address, "/healthz?verbose")).isEqualTo(new Reply(200, "[+]ping ok\n[+]watchers ok\nhealthz check passed\n"));
            assertThat(get(address, "/readyz/nothing").status()).isEqualTo(404);
        }
    }

    public static class Probes {
        @On.Probe
        public int counter() {
            return PROBED.incrementAndGet();
        }

        @On.Probe(id = "static")
        public static String fixed() {
            return "fine";
        }

        @On.Create("kopfexamples")
        public void create() {
        }
    }

    @Test
    void probeResultsAreCachedAndServedWhileTheApiServerIsDown() throws Exception {
        try (LocalCluster cluster = LocalCluster.start()) {
            cluster.apply(KopfExamples.CRD);
            try (Operator operator = Operator.builder().handlers(Probes.class)
                    .liveness(URI.create("http://127.0.0.1:0/healthz")).healthProbeAddress("127.0.0.1:0")
                    .kubeconfig(cluster.kubeconfig()).build()) {
                operator.start();
                InetSocketAddress liveness = operator.livenessAddress();
                Reply first = get(liveness, "/healthz");
                assertThat(first.status()).isEqualTo(200);
                assertThat(first.body()).isEqualTo("{\"counter\":" + PROBED.get() + ",\"static\":\"fine\"}\n");
                int calls = PROBED.get();
                get(liveness, "/healthz");
                get(liveness, "/healthz");
                assertThat(PROBED.get()).as("cached for 10 s").isEqualTo(calls);

                cluster.stopApiServer();
                assertThat(get(liveness, "/healthz").status()).isEqualTo(200);
                assertThat(get(operator.healthProbeAddress(), "/healthz")).isEqualTo(new Reply(200, "ok"));
            }
        }
    }

    private static OperatorSettings withoutPreflight() {
        OperatorSettings settings = new OperatorSettings();
        settings.preflight.enabled = false;
        return settings;
    }

    /** Turns the probes' cache off from a startup handler, as Kopf's settings are set. */
    public static class Uncached {
        @On.Startup
        public void configure(OperatorSettings settings) {
            settings.probes.livenessCache = Duration.ZERO;
        }
    }

    @Test
    void theLivenessCacheSetByAStartupHandlerApplies(LocalCluster cluster, TemporaryNamespace namespace) throws Exception {
        try (CapturedLogs logs = new CapturedLogs("io.kopf4j.internal.engines.probing");
             Operator operator = new OperatorFixture(cluster, namespace).operator().handlers(Probes.class, Uncached.class)
                .liveness(URI.create("http://127.0.0.1:0/healthz")).build()) {
            operator.start();
            assertThat(logs.messages()).as("Kopf's line").contains("Serving health status at http://127.0.0.1:"
                    + operator.livenessAddress().getPort() + "/healthz");
            get(operator.livenessAddress(), "/healthz");
            int calls = PROBED.get();
            get(operator.livenessAddress(), "/healthz");
            assertThat(PROBED.get()).as("not cached: the endpoint, made before the startup handlers, reads the setting")
                    .isGreaterThan(calls);
        }
    }
}
