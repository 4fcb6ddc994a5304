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
import io.kopf4j.storage.StatusDiffBaseStorage;
import io.kopf4j.storage.StatusProgressStorage;
import io.kopf4j.testing.KopfRunner;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Other storages, dropped status fields, and ambiguous selectors. */
@ExtendWith(LocalClusterExtension.class)
class StoragesTest {
    private static final Duration WAIT = Duration.ofSeconds(30);

    @Test
    void stateCanBeKeptInStatusInstead(LocalCluster cluster, TemporaryNamespace namespace) throws Exception {
        OperatorFixture fixture = new OperatorFixture(cluster, namespace);
        KopfExamples examples = fixture.examples();
        OperatorSettings settings = new OperatorSettings();
        settings.persistence.progressStorage = new StatusProgressStorage();
        settings.persistence.diffbaseStorage = new StatusDiffBaseStorage();
        try (Operator operator = fixture.start(fixture.operator().settings(settings)
                .handler(Handler.create("kopfexamples").id("create").handle(context -> "created")))) {
            examples.create("ex", Map.of("a", 1));
            await().atMost(WAIT).untilAsserted(() -> assertThat(examples.status("ex"))
                    .containsEntry("create", "created")
                    .containsEntry("kopf", Map.of("last-handled-configuration", "{\"spec\":{\"a\":1}}")));
            assertThat(examples.annotations("ex").keySet()).noneMatch(key -> key.startsWith("kopf.zalando.org/"));
        }
    }

    @Test
    void statusDroppedByAStrictSchemaIsReported(LocalCluster cluster, TemporaryNamespace namespace) throws Exception {
        OperatorFixture fixture = new OperatorFixture(cluster, namespace);
        fixture.installCrd("strict.example.com", "strictthings", "StrictThing", "{type: object, properties: {"
                + "spec: {type: object, x-kubernetes-preserve-unknown-fields: true},"
                + " status: {type: object, properties: {phase: {type: string}}}}}");
        try (CapturedLogs lines = new CapturedLogs("kopf.objects");
             Operator operator = fixture.start(fixture.operator()
                     .handler(Handler.create("strictthings.strict.example.com").id("create").handle(context -> "pruned")))) {
            fixture.objects("strict.example.com/v1", "StrictThing").create("s1", Map.of("a", 1));
            await().atMost(WAIT).until(() -> lines.contains("Merge-patching finished with inconsistencies: (('remove', ('status', 'create'), 'pruned', None),)"));
        }
    }

    public static class Ambiguous {
        @On.Create("dupthings")
        public void create() {
        }

        @On.Create("kopfexamples")
        public String served() {
            return "served";
        }
    }

    @Test
    void ambiguousNamesAreWarnedAboutAndNotServed(LocalCluster cluster, TemporaryNamespace namespace) throws Exception {
        OperatorFixture fixture = new OperatorFixture(cluster, namespace);
        for (String group : new String[]{"one.example.com", "two.example.com"}) {
            fixture.installCrd(group, "dupthings", "DupThing", OperatorFixture.ANY_FIELDS);
        }
        try (KopfRunner runner = fixture.run(Ambiguous.class)) {
            assertThat(runner.output()).containsAnyOf(
                    "Ambiguous resources will not be served (try specifying API groups): Selector(any_name='dupthings')"
                            + " => {dupthings.v1.one.example.com, dupthings.v1.two.example.com}",
                    "Ambiguous resources will not be served (try specifying API groups): Selector(any_name='dupthings')"
                            + " => {dupthings.v1.two.example.com, dupthings.v1.one.example.com}");
            fixture.examples().create("ex", Map.of("a", 1));
            await().atMost(WAIT).untilAsserted(() -> assertThat(fixture.examples().status("ex")).containsEntry("served", "served"));
        }
    }
}
