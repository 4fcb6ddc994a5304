package io.kopf4j.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kopf4j.HandlerContext;
import io.kopf4j.On;
import io.kopf4j.Spec;
import io.kopf4j.SubHandler;
import io.kopf4j.TemporaryError;
import io.kopf4j.envtest.LocalCluster;
import io.kopf4j.envtest.LocalClusterExtension;
import io.kopf4j.envtest.TemporaryNamespace;
import io.kopf4j.testing.KopfRunner;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Sub-handlers: ids parent/child, their own progress and options, subrefs on the parent, purged
 * together; registered, or executed inline as Kopf's kopf.execute().
 */
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

    /** Kopf's kopf.execute(): sub-handlers given inline with their options; the parent goes on when they are done. */
    public static class Inline {
        @On.Create("kopfexamples")
        public String create(HandlerContext context) {
            context.execute(List.of(
                    SubHandler.id("a").handle(a -> "done a"),
                    SubHandler.id("b").backoff(Duration.ofMillis(200)).handle(b -> {
                        if (b.retry() == 0) {
                            throw new IllegalStateException("b failed once");
                        }
                        return "done b";
                    }),
                    SubHandler.id("web").label("app", "web").handle(web -> "done web")));
            context.execute(Map.of("c", c -> "done c after a and b"));
            return "parent";
        }
    }

    @Test
    void executeRunsInlineSubHandlersWithTheirOptions(LocalCluster cluster, TemporaryNamespace namespace) {
        KopfExamples examples = new KopfExamples(cluster, namespace.name());
        try (KopfRunner runner = KopfRunner.start(cluster.kubeconfig(), "run", "-v", "-n", namespace.name(),
                Inline.class.getName())) {
            examples.create("ex", Map.of());
            await().atMost(WAIT).until(() -> runner.output().contains("Creation is processed: 1 succeeded; 0 failed."));
            assertThat(runner.output()).contains(
                    "Handler 'create/b' failed with an exception and will try again in 0.2 seconds: b failed once",
                    "Handler 'create' has unfinished sub-handlers. Will retry soon.",
                    "Handler 'create/b' succeeded.", "Handler 'create/c' succeeded.", "Handler 'create' succeeded.");
            assertThat(runner.output().indexOf("Handler 'create/c' succeeded."))
                    .as("c runs only when a and b are done").isGreaterThan(runner.output().indexOf("Handler 'create/b' succeeded."));
            await().atMost(WAIT).untilAsserted(() -> assertThat(examples.status("ex")).containsEntry("create", "parent")
                    .containsEntry("create/a", "done a").containsEntry("create/b", "done b")
                    .containsEntry("create/c", "done c after a and b").doesNotContainKey("create/web"));
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
