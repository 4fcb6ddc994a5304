package io.kopf4j.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.HttpResponse;
import io.kopf4j.ErrorsMode;
import io.kopf4j.On;
import io.kopf4j.envtest.LocalCluster;
import io.kopf4j.envtest.LocalClusterExtension;
import io.kopf4j.envtest.TemporaryNamespace;
import io.kopf4j.testing.KopfRunner;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * What an object can hold that the operator cannot choose, on the real API server (docs/faults.md,
 * "Hostile input"): nesting deeper than the JSON parser takes, garbage in Kopf's state annotations, a
 * handler's result that cannot be stored. Each such object is named in one line and costs nothing
 * to the others; none is lost: the garbage is taken as absent, and a deletion always completes.
 */
@ExtendWith(LocalClusterExtension.class)
class HostileObjectsTest {
    private static final Duration WAIT = Duration.ofSeconds(60);
    /** Deeper than Jackson's 1,000 levels, well within the API server's. */
    private static final int TOO_DEEP = 1500;

    public static class Handlers {
        @On.Create("kopfexamples")
        public String create() {
            return "created";
        }

        @On.Delete("kopfexamples")
        public void delete() {
        }
    }

    public static class UnstorableResults {
        @On.Create(value = "kopfexamples", errors = ErrorsMode.PERMANENT)
        public Object create(String name) {
            if (name.equals("thread")) {
                return new Thread(() -> { });
            }
            Map<String, Object> cyclic = new LinkedHashMap<>();
            cyclic.put("self", cyclic);
            return cyclic;
        }
    }

    @Test
    void anObjectTooDeepToReadIsSkippedWithOneErrorAndTheOthersAreServedBeforeAndAfterARestart(LocalCluster cluster,
            TemporaryNamespace namespace) throws Exception {
        OperatorFixture fixture = new OperatorFixture(cluster, namespace);
        KopfExamples examples = fixture.examples();
        String error = fixture.about("deep") + "The object cannot be read and is skipped at its version ";
        try (KopfRunner runner = fixture.run(Handlers.class)) {
            examples.create("before", Map.of("a", 1));
            await().atMost(WAIT).until(() -> "created".equals(examples.status("before").get("create")));
            createRaw(cluster.client(), namespace.name(), "deep", nested(TOO_DEEP));
            examples.create("after", Map.of("a", 1));
            await().atMost(WAIT).until(() -> "created".equals(examples.status("after").get("create")));
            // The deep object's event came before the later one's, so its error is logged by now.
            assertThat(KopfExamples.count(runner.output(), error)).isEqualTo(1);
            assertThat(runner.output()).contains("nesting depth (1001) exceeds the maximum allowed (1000");
        }
        try (KopfRunner runner = fixture.run(Handlers.class)) {   // the deep object is in the initial listing now
            examples.create("after-restart", Map.of("a", 1));
            await().atMost(WAIT).until(() -> "created".equals(examples.status("after-restart").get("create")));
            assertThat(KopfExamples.count(runner.output(), error)).isEqualTo(1);
            assertThat(raw(cluster.client(), "DELETE", namespace.name(), "deep")).isEqualTo(200);   // no finalizer: never handled
            await().atMost(WAIT).until(() -> raw(cluster.client(), "GET", namespace.name(), "deep") == 404);
        }
    }

    @Test
    void garbageInKopfsStateAnnotationsIsWarnedOfAndTakenAsAbsentEvenDuringADeletion(LocalCluster cluster,
            TemporaryNamespace namespace) throws Exception {
        OperatorFixture fixture = new OperatorFixture(cluster, namespace);
        KopfExamples examples = fixture.examples();
        String diffBase = "kopf.zalando.org/last-handled-configuration";
        try (KopfRunner runner = fixture.run(Handlers.class)) {
            examples.create("garbage-diffbase", Map.of("a", 1), Map.of(diffBase, "{not json"));
            examples.create("array-diffbase", Map.of("a", 1), Map.of(diffBase, "[1, 2]"));
            examples.create("garbage-progress", Map.of("a", 1), Map.of("kopf.zalando.org/create", "garbage"));
            examples.create("to-delete", Map.of("a", 1));
            for (String name : List.of("garbage-diffbase", "array-diffbase", "garbage-progress", "to-delete")) {
                await().atMost(WAIT).until(() -> "created".equals(examples.status(name).get("create")));
            }
            assertThat(runner.output())
                    .contains(fixture.about("garbage-diffbase") + "The last handled state is ignored, as if the object was"
                            + " never handled: annotation '" + diffBase + "' cannot be read (")
                    .contains(fixture.about("array-diffbase") + "The last handled state is ignored")
                    .contains(fixture.about("garbage-progress") + "Handler 'create': its stored progress is ignored, as if it"
                            + " never ran: annotation 'kopf.zalando.org/create' cannot be read (");
            assertThat(examples.annotations("garbage-diffbase").get(diffBase)).isEqualTo("{\"spec\":{\"a\":1}}\n");
            await().atMost(WAIT).until(() -> examples.finalizers("to-delete").contains("kopf.zalando.org/KopfFinalizerMarker"));
        }
        // With the operator away: the object goes into deletion with garbage in both kinds of state.
        examples.patch("to-delete", Map.of("metadata", Map.of("annotations",
                Map.of(diffBase, "garbage", "kopf.zalando.org/delete", "[\"garbage\"]"))));
        examples.delete("to-delete");
        try (KopfRunner runner = fixture.run(Handlers.class)) {
            await().atMost(WAIT).until(() -> !examples.exists("to-delete"));
            assertThat(runner.output()).contains(fixture.about("to-delete") + "Handler 'delete' succeeded.")
                    .contains(fixture.about("to-delete") + "Handler 'delete': its stored progress is ignored");
        }
    }

    @Test
    void aResultThatCannotBeStoredFailsTheHandlerAsItsErrorsModeSays(LocalCluster cluster, TemporaryNamespace namespace)
            throws Exception {
        OperatorFixture fixture = new OperatorFixture(cluster, namespace);
        KopfExamples examples = fixture.examples();
        try (KopfRunner runner = fixture.run(UnstorableResults.class)) {
            examples.create("thread", Map.of("a", 1));
            examples.create("cyclic", Map.of("a", 1));
            for (String name : List.of("thread", "cyclic")) {
                await().atMost(WAIT).until(() -> runner.output().contains(fixture.about(name)
                        + "Creation is processed: 0 succeeded; 1 failed."));
            }
            assertThat(runner.output())
                    .contains(fixture.about("thread") + "Handler 'create' failed with an exception and will stop now: its"
                            + " returned value, a java.lang.Thread, cannot be stored as JSON: ")
                    .contains(fixture.about("cyclic") + "Handler 'create' failed with an exception and will stop now: its"
                            + " returned value, a java.util.LinkedHashMap, cannot be stored as JSON: ")
                    .doesNotContain("Handler 'create' succeeded.");
            assertThat(examples.status("thread")).doesNotContainKey("create");
        }
    }

    /** {@code {"n":{"n":...{}}}}, {@code levels} objects deep. */
    static String nested(int levels) {
        return "{\"n\":".repeat(levels - 1) + "{}" + "}".repeat(levels - 1);
    }

    /** The status code of a bodiless request to the object (fabric8 would parse its answer, too deep for Jackson). */
    static int raw(KubernetesClient client, String method, String namespace, String name) throws Exception {
        HttpRequest request = client.getHttpClient().newHttpRequestBuilder()
                .uri(client.getMasterUrl() + "apis/kopf.dev/v1/namespaces/" + namespace + "/kopfexamples/" + name)
                .method(method, null, null).build();
        return client.getHttpClient().sendAsync(request, String.class).get().code();
    }

    /**
     * Creates a KopfExample whose spec is this JSON, sent as the bytes it is: fabric8's serialisation
     * has Jackson's limits, and a hostile client has none.
     */
    static void createRaw(KubernetesClient client, String namespace, String name, String specJson) throws Exception {
        String body = "{\"apiVersion\":\"kopf.dev/v1\",\"kind\":\"KopfExample\",\"metadata\":{\"name\":\"" + name
                + "\"},\"spec\":" + specJson + "}";
        HttpRequest request = client.getHttpClient().newHttpRequestBuilder()
                .uri(client.getMasterUrl() + "apis/kopf.dev/v1/namespaces/" + namespace + "/kopfexamples")
                .post("application/json", body).build();
        HttpResponse<String> response = client.getHttpClient().sendAsync(request, String.class).get();
        assertThat(response.code()).as(response.body()).isEqualTo(201);
    }
}
