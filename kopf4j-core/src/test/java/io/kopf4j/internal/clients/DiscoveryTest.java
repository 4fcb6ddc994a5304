package io.kopf4j.internal.clients;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.kopf4j.Resource;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The discovery's reading of the API server's answers, against a fake server with one group in two versions. */
class DiscoveryTest {
    private static final Map<String, String> ANSWERS = Map.of(
            "/api/v1", """
                    {"kind":"APIResourceList","groupVersion":"v1","resources":[
                      {"name":"pods","singularName":"","namespaced":true,"kind":"Pod","verbs":["get","list"],"shortNames":["po"],"categories":["all"]},
                      {"name":"pods/status","singularName":"","namespaced":true,"kind":"Pod","verbs":["get","patch"]},
                      {"name":"namespaces","singularName":"","namespaced":false,"kind":"Namespace","verbs":["list"]}]}""",
            "/apis", """
                    {"kind":"APIGroupList","groups":[
                      {"name":"kopf.dev","versions":[{"groupVersion":"kopf.dev/v1","version":"v1"},{"groupVersion":"kopf.dev/v1beta1","version":"v1beta1"}],
                       "preferredVersion":{"groupVersion":"kopf.dev/v1","version":"v1"}},
                      {"name":"apps","versions":[{"groupVersion":"apps/v1","version":"v1"}],"preferredVersion":{"groupVersion":"apps/v1","version":"v1"}}]}""",
            "/apis/kopf.dev/v1", """
                    {"kind":"APIResourceList","groupVersion":"kopf.dev/v1","resources":[
                      {"name":"kopfexamples","singularName":"kopfexample","namespaced":true,"kind":"KopfExample","verbs":["list","watch","patch"],"shortNames":["kex"]},
                      {"name":"kopfexamples/status","singularName":"","namespaced":true,"kind":"KopfExample","verbs":["patch"]}]}""");

    private final List<String> requested = new CopyOnWriteArrayList<>();
    /** How many requests are answered 503 before the server answers as ANSWERS says. */
    private final AtomicInteger busy = new AtomicInteger();
    /** If true, {@code /api/v1} is answered once every other group version has been asked for. */
    private final AtomicBoolean slowCoreGroup = new AtomicBoolean();
    private final AtomicInteger inFlight = new AtomicInteger();
    private final AtomicInteger maxInFlight = new AtomicInteger();
    private FakeApiServer server;
    private KubernetesClient client;

    @BeforeEach
    void startTheFakeApiServer() throws IOException {
        server = new FakeApiServer(exchange -> {
            String path = exchange.getRequestURI().getPath();
            requested.add(path);
            maxInFlight.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
            if (slowCoreGroup.get() && path.equals("/api/v1")) {
                await().atMost(Duration.ofSeconds(10)).until(() -> requested.containsAll(List.of("/apis/kopf.dev/v1", "/apis/apps/v1")));
            }
            inFlight.decrementAndGet();
            String answer = busy.getAndDecrement() > 0 ? "" : ANSWERS.get(path);
            int code = answer == null ? 404 : answer.isEmpty() ? 503 : 200;
            byte[] body = (code == 200 ? answer : "{\"kind\":\"Status\",\"code\":" + code + ",\"message\":\"not now\"}")
                    .getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(code, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        client = server.client();
    }

    @AfterEach
    void stop() {
        server.close();
    }

    @Test
    void aBusyServersAnswersAreRetriedAsTheRetriesSay() {
        busy.set(2);
        List<Resource> resources = new Discovery(client, new ApiRetries(List.of(Duration.ofMillis(1), Duration.ofMillis(1)), false))
                .resources(Set.of("", "kopf.dev"));

        assertThat(resources).hasSize(3);
        assertThat(requested).as("the group list is read first, then the group versions").startsWith("/apis", "/apis", "/apis")
                .hasSize(6);
    }

    @Test
    void readsTheGroupVersionsAtOnceAndKeepsTheDiscoveryOrder() {
        slowCoreGroup.set(true);   // the core group answers last, after the others were read in the meantime
        List<Resource> resources = new Discovery(client).resources(null);

        assertThat(maxInFlight.get()).as("group versions read at once").isGreaterThan(1);
        assertThat(resources).extracting(Resource::plural).as("in discovery order, the core group first")
                .containsExactly("namespaces", "pods", "kopfexamples");
    }

    @Test
    void readsTheResourcesOfTheGroupsAskedForWithTheirSubresourcesAndPreferredVersions() {
        List<Resource> resources = new Discovery(client).resources(Set.of("", "kopf.dev"));

        assertThat(resources).hasSize(3);
        Resource pods = find(resources, "", "pods");
        assertThat(pods.kind()).isEqualTo("Pod");
        assertThat(pods.namespaced()).isTrue();
        assertThat(pods.subresources()).containsExactly("status");
        assertThat(pods.shortNames()).containsExactly("po");
        assertThat(pods.categories()).containsExactly("all");
        assertThat(find(resources, "", "namespaces").namespaced()).isFalse();
        Resource kopfexamples = find(resources, "kopf.dev", "kopfexamples");
        assertThat(kopfexamples.version()).isEqualTo("v1");
        assertThat(kopfexamples.preferred()).isTrue();
        assertThat(kopfexamples.singular()).isEqualTo("kopfexample");
        assertThat(kopfexamples.verbs()).containsExactly("list", "watch", "patch");
        assertThat(requested).as("the group not asked for is never read; the vanished version is skipped")
                .containsExactlyInAnyOrder("/api/v1", "/apis", "/apis/kopf.dev/v1", "/apis/kopf.dev/v1beta1");
    }

    private static Resource find(List<Resource> resources, String group, String plural) {
        return resources.stream().filter(r -> r.group().equals(group) && r.plural().equals(plural)).findFirst().orElseThrow();
    }
}
