package io.kopf4j.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kopf4j.HandlerContext;
import io.kopf4j.On;
import io.kopf4j.Spec;
import io.kopf4j.TemporaryError;
import io.kopf4j.testing.KopfRunner;
import io.kopf4j.testing.LocalCluster;
import io.kopf4j.testing.LocalClusterExtension;
import io.kopf4j.testing.TemporaryNamespace;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Sub-handlers: ids parent/child, their own progress, subrefs on the parent, purged together. */
@ExtendWith(LocalClusterExtension.class)
class SubhandlersTest {
    private static final Duration WAIT = Duration.ofSeconds(30);
    static final List<String> PARENT_RECORDS = new CopyOnWriteArrayList<>();

    public static class Handlers {
        @On.Create("kopfexamples")
        public String create(Spec spec, HandlerContext context) {
            for (Object item : (List<?>) spec.get("items")) {
                context.register(String.valueOf(item), child -> {
                    if (item.equals("b") && child.retry() == 0) {
                        throw new TemporaryError("b is not ready", Duration.ofSeconds(1));
                    }
                    return "done " + item;
                });
            }
            return "parent";
        }
    }

    @Test
    void childrenRunWithTheirOwnProgressAndTheParentFinishesLast(LocalCluster cluster, TemporaryNamespace namespace) {
        OperatorFixture fixture = new OperatorFixture(cluster, namespace);
        KopfExamples examples = fixture.examples();
        try (KopfRunner runner = fixture.run(Handlers.class)) {
            examples.create("ex", Map.of("items", List.of("a", "b")));
            await().atMost(WAIT).pollInterval(Duration.ofMillis(20)).until(() -> {
                String record = examples.annotations("ex").get("kopf.zalando.org/create");
                if (record != null) {
                    PARENT_RECORDS.add(record);
                }
                return runner.output().contains("Creation is processed: 1 succeeded; 0 failed.");
            });
            assertThat(runner.output()).contains("Handler 'create/a' succeeded.", "Handler 'create/b' failed temporarily: b is not ready",
                    "Handler 'create/b' succeeded.", "Handler 'create' succeeded.");
            assertThat(PARENT_RECORDS).anySatisfy(record -> assertThat(record).contains("\"subrefs\":[\"create/a\",\"create/b\"]"));
            await().atMost(WAIT).untilAsserted(() -> {
                assertThat(examples.status("ex")).containsEntry("create", "parent")
                        .containsEntry("create/a", "done a").containsEntry("create/b", "done b");
                assertThat(examples.annotations("ex").keySet()).filteredOn(key -> key.startsWith("kopf.zalando.org/"))
                        .containsExactly("kopf.zalando.org/last-handled-configuration");
            });
        }
    }
}
