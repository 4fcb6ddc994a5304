package io.kopf4j.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kopf4j.Filter;
import io.kopf4j.HandlerContext;
import io.kopf4j.On;
import io.kopf4j.Status;
import io.kopf4j.testing.KopfHarness;
import io.kopf4j.testing.KopfRunner;
import io.kopf4j.testing.KopfTest;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;

/** Filters decide which objects handlers see; objects no handler is for are left without a trace. */
@KopfTest(scope = KopfTest.Scope.METHOD, crds = "../examples/crd.yaml", handlers = FiltersTest.Handlers.class)
class FiltersTest {
    private static final Duration WAIT = Duration.ofSeconds(30);

    public static class Big implements Filter {
        public boolean test(HandlerContext context) {
            return context.spec().get("size") instanceof Number size && size.intValue() >= 10;
        }
    }

    public static class Handlers {
        @On.Create(value = "kopfexamples", labels = "app=web")
        public String create() {
            return "created";
        }

        @On.Update(value = "kopfexamples", labels = "app=web", field = "spec.size", oldValue = "1", newValue = "2")
        public String grew() {
            return "from one to two";
        }

        @On.Update(value = "kopfexamples", labels = "app=web", when = Big.class)
        public String big() {
            return "big";
        }

        @On.Event("kopfexamples")
        public void event(String type, String name, Status status, Logger logger) {
            logger.info("Event {} for {} with marker {}", type, name, status.get("marker"));
        }
    }

    /**
     * Waits until every change of the object so far has been processed to its end: an object's events
     * are processed one after the other (the latest of those waiting, which may carry several
     * changes), and an event's handlers run before its changing handlers. So once the event handler
     * has seen the second of two markers, the processing of the first (and all before it) is over.
     */
    private static void awaitProcessedSoFar(KopfRunner runner, KopfExamples examples, String name) {
        for (int marker = 1; marker <= 2; marker++) {
            examples.patchStatus(name, Map.of("marker", marker));
            String seen = "Event MODIFIED for " + name + " with marker " + marker;
            await().atMost(WAIT).until(() -> runner.output().contains(seen));
        }
    }

    @Test
    void labelsFieldValuesAndPredicatesSelectHandlers(KopfHarness kopf, KopfRunner runner) {
        OperatorFixture fixture = new OperatorFixture(kopf);
        KopfExamples examples = fixture.examples();
        examples.create("plain", Map.of("size", 1));
        examples.patch("plain", Map.of("spec", Map.of("size", 2)));
        awaitProcessedSoFar(runner, examples, "plain");
        assertThat(examples.annotations("plain").keySet()).noneMatch(key -> key.startsWith("kopf.zalando.org/"));
        assertThat(examples.finalizers("plain")).isEmpty();
        assertThat(runner.output()).doesNotContain(fixture.about("plain") + "Handling cycle");

        examples.patch("plain", Map.of("metadata", Map.of("labels", Map.of("app", "web"))));
        await().atMost(WAIT).untilAsserted(() -> assertThat(examples.status("plain")).containsEntry("create", "created"));
        assertThat(runner.output()).as("starting to match is a creation")
                .contains(fixture.about("plain") + "Creation is processed: 1 succeeded; 0 failed.");

        examples.patch("plain", Map.of("spec", Map.of("size", 1)));
        await().atMost(WAIT).until(() -> examples.annotations("plain")
                .getOrDefault("kopf.zalando.org/last-handled-configuration", "").contains("\"size\":1"));
        examples.patch("plain", Map.of("spec", Map.of("size", 2)));
        // The summary counts the handlers that ran for the change: 'big' would be the second.
        await().atMost(WAIT).until(() -> runner.output().contains(fixture.about("plain") + "Updating is processed: 1 succeeded; 0 failed."));
        await().atMost(WAIT).untilAsserted(() -> assertThat(examples.status("plain")).containsEntry("grew/spec.size", "from one to two"));
        assertThat(examples.status("plain")).doesNotContainKey("big");

        examples.patch("plain", Map.of("spec", Map.of("size", 12)));
        await().atMost(WAIT).untilAsserted(() -> assertThat(examples.status("plain")).containsEntry("big", "big"));
    }
}
