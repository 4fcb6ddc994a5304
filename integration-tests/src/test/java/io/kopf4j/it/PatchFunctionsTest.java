package io.kopf4j.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.kopf4j.Daemon;
import io.kopf4j.On;
import io.kopf4j.Patch;
import io.kopf4j.TemporaryError;
import io.kopf4j.envtest.LocalCluster;
import io.kopf4j.envtest.LocalClusterExtension;
import io.kopf4j.envtest.TemporaryNamespace;
import io.kopf4j.testing.KopfRunner;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A handler's own {@code patch.fns()} (Kopf 1.44's {@code patch.fns}, #1253, and 1.44.5's patch
 * timing in daemons, #1296) on the real API server: the function edits the freshest object, not the
 * one the handler saw, and goes as a JSON Patch, so that an item appended to a list keeps the items
 * that others added meanwhile (a merge patch would replace the whole list).
 */
@ExtendWith(LocalClusterExtension.class)
class PatchFunctionsTest {
    private static final Duration WAIT = Duration.ofSeconds(30);

    /** Appends a condition to {@code status.conditions}, as the object it is given has them. */
    static Consumer<Map<String, Object>> appendCondition(String type) {
        return new AppendCondition(type);
    }

    /** A function named in the operator's log lines (its "Remaining: Patch(fns=[...])" when carried). */
    record AppendCondition(String type) implements Consumer<Map<String, Object>> {
        @Override
        @SuppressWarnings("unchecked")
        public void accept(Map<String, Object> body) {
            Map<String, Object> status = (Map<String, Object>) body.computeIfAbsent("status", key -> new LinkedHashMap<>());
            List<Object> conditions = (List<Object>) status.computeIfAbsent("conditions", key -> new ArrayList<>());
            Map<String, Object> condition = new LinkedHashMap<>();
            condition.put("type", type);
            condition.put("status", "True");
            conditions.add(condition);
        }

        @Override
        public String toString() {
            return "appendCondition('" + type + "')";
        }
    }

    @SuppressWarnings("unchecked")
    static List<Object> conditionTypes(Map<String, Object> status) {
        Object conditions = status.get("conditions");
        return conditions == null ? List.of()
                : ((List<Map<String, Object>>) conditions).stream().map(condition -> condition.get("type")).toList();
    }

    private static KopfExamples examples(KubernetesClient client, String namespace) {
        return new KopfExamples(client, namespace, "kopf.dev/v1", "KopfExample");
    }

    /**
     * Adds a condition through the API while it runs (so that the body it was called with is stale),
     * and one more by a function of its patch.
     */
    public static class AppendsACondition {
        @On.Create("kopfexamples")
        public String create(Patch patch, KubernetesClient client, String namespace, String name) {
            examples(client, namespace).patchStatus(name, Map.of("conditions", List.of(Map.of("type", "External", "status", "True"))));
            patch.fns().add(appendCondition("Handled"));
            return "created";
        }
    }

    @Test
    void aChangeHandlersOwnFunctionIsAppliedToTheFreshestObjectAsAJsonPatch(LocalCluster cluster,
                                                                            TemporaryNamespace namespace) {
        OperatorFixture fixture = new OperatorFixture(cluster, namespace);
        KopfExamples examples = fixture.examples();
        try (KopfRunner runner = fixture.run(AppendsACondition.class)) {
            examples.create("ex", Map.of("size", 1));
            await().atMost(WAIT).untilAsserted(() -> assertThat(conditionTypes(examples.status("ex")))
                    .as("appended to the list the API server has, after the handler's own change").containsExactly("External", "Handled"));
            assertThat(examples.status("ex")).containsEntry("create", "created");
            assertThat(runner.output())
                    .contains(fixture.about("ex") + "JSON-patching the status with: [{'op': 'test', 'path': '/metadata/resourceVersion', 'value': '")
                    .contains("{'op': 'add', 'path': '/status/conditions/1', 'value': {'type': 'Handled', 'status': 'True'}}]");
        }
    }

    /**
     * Fails its first call with a TemporaryError after patching both ways; its second call reads the
     * object to see what the first one's patch did, and patches once more.
     */
    public static class RetriedDaemon {
        static final Map<String, Map<String, Object>> SEEN_BY_THE_SECOND_CALL = new ConcurrentHashMap<>();

        @Daemon("kopfexamples")
        public String watch(int retry, Patch patch, KubernetesClient client, String namespace, String name) {
            if (retry == 0) {
                patch.status().put("firstCall", "failed");
                patch.fns().add(appendCondition("FirstCall"));
                throw new TemporaryError("once more", Duration.ZERO);
            }
            SEEN_BY_THE_SECOND_CALL.put(namespace, examples(client, namespace).status(name));
            patch.fns().add(appendCondition("SecondCall"));
            return "done";
        }
    }

    @Test
    void aDaemonsPatchIsAppliedAfterACallThatFailedTemporarilyBeforeTheNextCall(LocalCluster cluster,
                                                                               TemporaryNamespace namespace) {
        OperatorFixture fixture = new OperatorFixture(cluster, namespace);
        KopfExamples examples = fixture.examples();
        try (KopfRunner runner = fixture.run(RetriedDaemon.class)) {
            examples.create("ex", Map.of("size", 1));
            await().atMost(WAIT).untilAsserted(() -> assertThat(conditionTypes(examples.status("ex")))
                    .as("each call's function applied once, after its call").containsExactly("FirstCall", "SecondCall"));
            assertThat(examples.status("ex")).containsEntry("watch", "done");
            Map<String, Object> seen = RetriedDaemon.SEEN_BY_THE_SECOND_CALL.get(namespace.name());
            assertThat(seen).as("the first call's merge patch, stored before the second call").containsEntry("firstCall", "failed");
            // Its function's JSON Patch too, unless a write meanwhile (the reactor's, at the object's first sight) made
            // its guard fail: then, as Kopf's, it is carried to the patch after the next call (the order above holds).
            boolean carried = runner.output().lines().anyMatch(line -> line.contains("Could not apply the patch in full")
                    && line.contains("appendCondition('FirstCall')"));
            if (carried) {
                assertThat(conditionTypes(seen)).as("the first call's function, carried to after the second").isEmpty();
            } else {
                assertThat(conditionTypes(seen)).as("and its function's JSON Patch").containsExactly("FirstCall");
            }
        }
    }
}
