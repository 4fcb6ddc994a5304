package io.kopf4j.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kopf4j.On;
import io.kopf4j.Spec;
import io.kopf4j.StatusConditions;
import io.kopf4j.envtest.LocalCluster;
import io.kopf4j.envtest.LocalClusterExtension;
import io.kopf4j.envtest.TemporaryNamespace;
import io.kopf4j.testing.KopfRunner;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Handlers that keep Kubernetes-style conditions through a {@code StatusConditions} parameter, on a
 * real API server: the conditions are stored as written, with the object's generation, and a
 * condition's transition time moves only when its status does.
 */
@ExtendWith(LocalClusterExtension.class)
class StatusConditionsTest {
    private static final Duration WAIT = Duration.ofSeconds(30);

    public static class Handlers {
        @On.Create("kopfexamples")
        public void create(StatusConditions conditions) {
            conditions.set("Ready", false, "Provisioning", "creating the database");
            conditions.set("Synced", true, "Applied", "");
        }

        @On.Update("kopfexamples")
        public void update(Spec spec, StatusConditions conditions) {
            int size = spec.getInt("size", 0);
            conditions.set("Ready", size > 1, size > 1 ? "Scaled" : "TooSmall", "size " + size);
        }
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> condition(KopfExamples examples, String type) {
        Object listed = examples.status("kex").get("conditions");
        return listed instanceof List<?> list ? list.stream().map(item -> (Map<String, Object>) item)
                .filter(item -> type.equals(item.get("type"))).findFirst().orElse(Map.of()) : Map.of();
    }

    @Test
    void conditionsAreStoredWithTheGenerationAndMoveTheirTimeOnlyWhenTheirStatusChanges(LocalCluster cluster,
                                                                                       TemporaryNamespace namespace) {
        OperatorFixture fixture = new OperatorFixture(cluster, namespace);
        KopfExamples examples = fixture.examples();
        try (KopfRunner runner = fixture.run(Handlers.class)) {
            examples.create("kex", Map.of("size", 1));
            await().atMost(WAIT).untilAsserted(() -> assertThat(condition(examples, "Ready"))
                    .containsEntry("status", "False").containsEntry("reason", "Provisioning").containsEntry("observedGeneration", 1));
            Object created = condition(examples, "Ready").get("lastTransitionTime");
            assertThat((String) created).matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ");

            // The times are at seconds: each change is made in a later second than the creation, so that a moved time shows.
            Instant since = Instant.parse((String) created);
            await().atMost(WAIT).until(() -> Instant.now().truncatedTo(ChronoUnit.SECONDS).isAfter(since));
            examples.patch("kex", Map.of("spec", Map.of("size", 0)));   // still not ready: the time stays
            await().atMost(WAIT).untilAsserted(() -> assertThat(condition(examples, "Ready"))
                    .containsEntry("reason", "TooSmall").containsEntry("observedGeneration", 2)
                    .containsEntry("lastTransitionTime", created));

            Instant flipped = Instant.now().truncatedTo(ChronoUnit.SECONDS);
            assertThat(flipped).isAfter(since);
            examples.patch("kex", Map.of("spec", Map.of("size", 3)));
            await().atMost(WAIT).untilAsserted(() -> assertThat(condition(examples, "Ready"))
                    .containsEntry("status", "True").containsEntry("reason", "Scaled").containsEntry("observedGeneration", 3));
            assertThat(Instant.parse((String) condition(examples, "Ready").get("lastTransitionTime"))).isAfterOrEqualTo(flipped);
            assertThat(condition(examples, "Synced")).containsEntry("status", "True").containsEntry("observedGeneration", 1);
            assertThat(runner.output()).contains(fixture.about("kex") + "Handler 'update' succeeded.");
        }
    }
}
