package io.kopf4j.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kopf4j.On;
import io.kopf4j.Resource;
import io.kopf4j.ResourceMatcher;
import io.kopf4j.envtest.LocalCluster;
import io.kopf4j.envtest.LocalClusterExtension;
import io.kopf4j.envtest.TemporaryNamespace;
import io.kopf4j.testing.KopfRunner;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.slf4j.Logger;

/**
 * Resources that cannot be served when the operator starts (no CRD yet, not watchable): skipped with
 * Kopf's warnings and named by readiness, not an error; and CRDs installed or removed while it runs.
 */
@ExtendWith(LocalClusterExtension.class)
class DynamicResourcesTest {
    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final String GROUP = "late.example.com";

    public static class Handlers {
        @On.Create("latewidgets.late.example.com")
        public String create() {
            return "created";
        }
    }

    /** A bare name, as a typo would be: it waits for its CRD as a name with its group does. */
    public static class BareName {
        @On.Create("earlywidgets")
        public String create() {
            return "created";
        }
    }

    /** A typo of a served resource's name: the warning names the handler and the resource it may mean. */
    public static class Typo {
        @On.Create("kopfexampless")
        public String create() {
            return "created";
        }
    }

    public static class NotWatchable {
        @On.Event("componentstatuses")
        public void event() {
        }

        @On.Create("kopfexamples")
        public String create() {
            return "created";
        }
    }

    /** Kopf's callable selector: every resource of one group, whichever CRDs appear in it. */
    public static class PickedGroup implements ResourceMatcher {
        @Override
        public boolean matches(Resource resource) {
            return resource.group().equals("picked.example.com");
        }
    }

    public static class Selected {
        @On.Create(selector = PickedGroup.class)
        public String create() {
            return "created";
        }
    }

    public static class Stuck {
        @On.Create("stuckwidgets.late.example.com")
        public String create(Logger logger) {
            logger.info("Stuck handler started");
            try {
                Thread.sleep(Duration.ofMinutes(1));
                return "finished";
            } catch (InterruptedException e) {
                logger.info("Stuck handler interrupted");
                Thread.currentThread().interrupt();
                return "interrupted";
            }
        }
    }

    /** Runs the handlers with health probes; the start must not fail, but warn as Kopf does. */
    private static KopfRunner runWarned(OperatorFixture fixture, Class<?> handlers, String warning) {
        KopfRunner runner = fixture.run(handlers, "--health-probe-bind-address", "127.0.0.1:0");
        try {
            assertThat(runner.exception()).as("the start did not fail").isNull();
            assertThat(runner.output()).contains(warning);
            return runner;
        } catch (AssertionError e) {
            runner.close();
            throw e;
        }
    }

    private static void deleteCrd(LocalCluster cluster, String name) {
        cluster.client().apiextensions().v1().customResourceDefinitions().withName(name).delete();
    }

    @Test
    void aCrdInstalledAfterStartupIsServedAndDroppedWhenDeleted(LocalCluster cluster, TemporaryNamespace namespace) throws Exception {
        OperatorFixture fixture = new OperatorFixture(cluster, namespace);
        try (KopfRunner runner = fixture.run(Handlers.class)) {
            assertThat(runner.output()).contains("Unresolved resources cannot be served (try creating their CRDs):"
                    + " Selector(group='late.example.com', any_name='latewidgets')");

            fixture.installCrd(GROUP, "latewidgets", "LateWidget", OperatorFixture.ANY_FIELDS);
            await().atMost(WAIT).until(() -> runner.output().contains("Resource latewidgets.v1.late.example.com is served now."));

            KopfExamples widgets = fixture.objects(GROUP + "/v1", "LateWidget");
            widgets.create("w1", Map.of("a", 1));
            await().atMost(WAIT).untilAsserted(() -> assertThat(widgets.status("w1")).isEqualTo(Map.of("create", "created")));

            deleteCrd(cluster, "latewidgets." + GROUP);
            await().atMost(WAIT).until(() -> runner.output().contains(
                    "Resource latewidgets.v1.late.example.com is not served any more; its watchers stop."));
        }
    }

    @Test
    void aSelectorPredicateIsAskedAgainForEachNewCrdAndServesWhatItPicks(LocalCluster cluster, TemporaryNamespace namespace)
            throws Exception {
        OperatorFixture fixture = new OperatorFixture(cluster, namespace);
        try (KopfRunner runner = fixture.run(Selected.class, "--health-probe-bind-address", "127.0.0.1:0")) {
            // Nothing picked yet is no problem: no warning.
            assertThat(runner.output()).doesNotContain("Unresolved");
            fixture.installCrd("ignored.example.com", "ignoredwidgets", "IgnoredWidget", OperatorFixture.ANY_FIELDS);
            fixture.installCrd("picked.example.com", "pickedwidgets", "PickedWidget", OperatorFixture.ANY_FIELDS);
            await().atMost(WAIT).until(() -> runner.output().contains("Resource pickedwidgets.v1.picked.example.com is served now."));

            KopfExamples ignored = fixture.objects("ignored.example.com/v1", "IgnoredWidget");
            KopfExamples picked = fixture.objects("picked.example.com/v1", "PickedWidget");
            ignored.create("i1", Map.of("a", 1));
            picked.create("p1", Map.of("a", 1));
            await().atMost(WAIT).untilAsserted(() -> assertThat(picked.status("p1")).isEqualTo(Map.of("create", "created")));
            // The rescan that served the picked group had the ignored CRD in its discovery already (installed
            // first), and logged every resource it served at once, long before the picked object was handled.
            assertThat(runner.output()).doesNotContain("ignoredwidgets.v1.ignored.example.com is served");
        } finally {
            deleteCrd(cluster, "pickedwidgets.picked.example.com");
            deleteCrd(cluster, "ignoredwidgets.ignored.example.com");
        }
    }

    @Test
    void anUnresolvedResourceNamesItsHandlerAndTheClosestServedName(LocalCluster cluster, TemporaryNamespace namespace) {
        OperatorFixture fixture = new OperatorFixture(cluster, namespace);
        String kopfs = "Unresolved resources cannot be served (try creating their CRDs): Selector(any_name='kopfexampless')";
        try (KopfRunner runner = runWarned(fixture, Typo.class, kopfs)) {
            String output = runner.output();
            String ours = "Unresolved resource kopfexampless is asked for by Typo.create(); did you mean kopfexamples?";
            assertThat(output).contains(ours);
            assertThat(output.indexOf(kopfs)).as("Kopf's line first").isLessThan(output.indexOf(ours));
        }
    }

    @Test
    void anOperatorStartedBeforeItsCrdRunsNotReadyAndServesTheResourceOnceTheCrdIsApplied(LocalCluster cluster,
            TemporaryNamespace namespace) throws Exception {
        OperatorFixture fixture = new OperatorFixture(cluster, namespace);
        try (KopfRunner runner = runWarned(fixture, BareName.class,
                "Unresolved resources cannot be served (try creating their CRDs): Selector(any_name='earlywidgets')")) {
            InetSocketAddress probes = ProbesTest.healthProbes(runner.output());
            assertThat(ProbesTest.get(probes, "/readyz?verbose")).isEqualTo(new ProbesTest.Reply(500,
                    "[-]resources-served failed: not served: earlywidgets (unresolved: try creating its CRD)\n"
                            + "[+]watch-cache-sync ok\nreadyz check failed\n"));

            fixture.installCrd(GROUP, "earlywidgets", "EarlyWidget", OperatorFixture.ANY_FIELDS);
            KopfExamples widgets = fixture.objects(GROUP + "/v1", "EarlyWidget");
            widgets.create("w1", Map.of());
            await().atMost(WAIT).untilAsserted(() -> assertThat(widgets.status("w1")).isEqualTo(Map.of("create", "created")));
            await().atMost(WAIT).untilAsserted(() -> assertThat(ProbesTest.get(probes, "/readyz?verbose")).isEqualTo(
                    new ProbesTest.Reply(200, "[+]resources-served ok\n[+]watch-cache-sync ok\nreadyz check passed\n")));
        } finally {
            deleteCrd(cluster, "earlywidgets." + GROUP);
        }
    }

    @Test
    void aResourceThatCannotBeWatchedIsSkippedWithKopfsWarningAndNamedByReadiness(LocalCluster cluster,
            TemporaryNamespace namespace) throws Exception {
        OperatorFixture fixture = new OperatorFixture(cluster, namespace);
        try (KopfRunner runner = runWarned(fixture, NotWatchable.class,
                "Non-watchable resources will not be served: {componentstatuses.v1}")) {
            fixture.examples().create("ex", Map.of());
            await().atMost(WAIT).untilAsserted(() -> assertThat(fixture.examples().status("ex")).containsEntry("create", "created"));
            assertThat(ProbesTest.get(ProbesTest.healthProbes(runner.output()), "/readyz/resources-served")).isEqualTo(
                    new ProbesTest.Reply(500, "internal server error: not served: componentstatuses"
                            + " (componentstatuses.v1 is not watchable: its verbs are [get, list])\n"));
        }
    }

    @Test
    void handlersOfAResourceThatIsGoneGetTheExitTimeoutThenAreInterrupted(LocalCluster cluster, TemporaryNamespace namespace)
            throws Exception {
        OperatorFixture fixture = new OperatorFixture(cluster, namespace);
        fixture.installCrd(GROUP, "stuckwidgets", "StuckWidget", OperatorFixture.ANY_FIELDS);
        try (KopfRunner runner = fixture.run(Stuck.class)) {
            fixture.objects(GROUP + "/v1", "StuckWidget").create("w1", Map.of());
            await().atMost(WAIT).until(() -> runner.output().contains("Stuck handler started"));

            deleteCrd(cluster, "stuckwidgets." + GROUP);
            await().atMost(WAIT).until(() -> runner.output().contains("Stuck handler interrupted"));
            String output = runner.output();
            assertThat(output.indexOf("Resource stuckwidgets.v1.late.example.com is not served any more"))
                    .isNotNegative().isLessThan(output.indexOf("Stuck handler interrupted"));
        }
    }
}
