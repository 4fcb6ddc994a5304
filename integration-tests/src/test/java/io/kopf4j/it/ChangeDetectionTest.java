package io.kopf4j.it;

import static io.kopf4j.it.KopfExamples.count;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kopf4j.Diff;
import io.kopf4j.On;
import io.kopf4j.Spec;
import io.kopf4j.testing.KopfHarness;
import io.kopf4j.testing.KopfRunner;
import io.kopf4j.testing.KopfTest;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Create, update and field handlers see Kopf's causes and diffs. */
@KopfTest(scope = KopfTest.Scope.METHOD, crds = "../examples/crd.yaml", handlers = ChangeDetectionTest.Handlers.class)
class ChangeDetectionTest {
    private static final Duration WAIT = Duration.ofSeconds(30);

    public static class Handlers {
        @On.Create("kopfexamples")
        public Map<String, Object> create(Spec spec) {
            return Map.of("size", spec.get("size"));
        }

        @On.Update("kopfexamples")
        public Map<String, Object> update(Diff diff) {
            return Map.of("diff", diff.toString());
        }

        @On.Field(value = "kopfexamples", field = "spec.size")
        public Map<String, Object> size(Object old, Object current, Diff diff) {
            return Map.of("old", String.valueOf(old), "new", String.valueOf(current), "diff", diff.toString());
        }
    }

    @Test
    void handlersSeeTheirCausesAndDiffs(KopfHarness kopf, KopfRunner runner) {
        OperatorFixture fixture = new OperatorFixture(kopf);
        KopfExamples examples = fixture.examples();
        examples.create("ex", Map.of("size", 1, "other", "a"));
        await().atMost(WAIT).until(() -> runner.output().contains("Creation is processed: 2 succeeded; 0 failed."));
        await().atMost(WAIT).untilAsserted(() -> assertThat(examples.status("ex")).containsEntry("create", Map.of("size", 1))
                .containsEntry("size/spec.size", Map.of("old", "null", "new", "1", "diff", "[[\"add\",[],null,1]]")));

        examples.patch("ex", Map.of("spec", Map.of("other", "b")));
        await().atMost(WAIT).until(() -> runner.output().contains("Updating is processed: 1 succeeded; 0 failed."));
        await().atMost(WAIT).untilAsserted(() -> assertThat(examples.status("ex"))
                .containsEntry("update", Map.of("diff", "[[\"change\",[\"spec\",\"other\"],\"a\",\"b\"]]")));
        assertThat(count(runner.output(), "Handler 'size/spec.size' succeeded.")).as("the field did not change").isEqualTo(1);

        examples.patch("ex", Map.of("spec", Map.of("size", 2)));
        await().atMost(WAIT).until(() -> runner.output().contains("Updating is processed: 2 succeeded; 0 failed."));
        await().atMost(WAIT).untilAsserted(() -> {
            assertThat(examples.status("ex"))
                    .containsEntry("update", Map.of("diff", "[[\"change\",[\"spec\",\"size\"],1,2]]"))
                    .containsEntry("size/spec.size", Map.of("old", "1", "new", "2", "diff", "[[\"change\",[],1,2]]"));
            assertThat(examples.annotations("ex")).containsKey("kopf.zalando.org/last-handled-configuration")
                    .doesNotContainKeys("kopf.zalando.org/update", "kopf.zalando.org/size.spec.size");
        });
    }

    @Test
    void statusChangesAreNotEssential(KopfHarness kopf, KopfRunner runner) {
        OperatorFixture fixture = new OperatorFixture(kopf);
        KopfExamples examples = fixture.examples();
        examples.create("ex", Map.of("size", 1));
        await().atMost(WAIT).until(() -> runner.output().contains("Creation is processed"));
        examples.patchStatus("ex", Map.of("phase", "x"));
        await().atMost(WAIT).until(() -> examples.status("ex").containsKey("phase")
                && runner.output().contains("Something has changed, but we are not interested (the essence is the same)."));
        assertThat(runner.output()).doesNotContain("Updating is processed");
    }
}
