package io.kopf4j.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import java.nio.file.Path;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.platform.launcher.LauncherDiscoveryRequest;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;
import org.junit.platform.launcher.listeners.SummaryGeneratingListener;
import org.junit.platform.launcher.listeners.TestExecutionSummary;

/** What {@link KopfTest} promises beyond the docs' example: scopes, parallel classes, late starts. */
class KopfExtensionTest {
    /** Set only while {@link #testClassesRunInParallelEachWithItsNamespaceAndOperator} runs them. */
    private static volatile CountDownLatch bothRunning;
    private static final Set<String> namespaces = ConcurrentHashMap.newKeySet();

    @Test
    void testClassesRunInParallelEachWithItsNamespaceAndOperator() {
        bothRunning = new CountDownLatch(2);
        namespaces.clear();
        try {
            TestExecutionSummary summary = run(ParallelA.class, ParallelB.class);
            assertThat(summary.getFailures()).extracting(failure -> failure.getException().toString()).isEmpty();
            assertThat(summary.getTestsSucceededCount()).isEqualTo(2);
            assertThat(namespaces).hasSize(2);
        } finally {
            bothRunning = null;
        }
    }

    @Test
    void aMethodScopeGivesEveryMethodItsNamespaceAndOperator() {
        namespaces.clear();
        TestExecutionSummary summary = run(PerMethod.class);
        assertThat(summary.getFailures()).extracting(failure -> failure.getException().toString()).isEmpty();
        assertThat(summary.getTestsSucceededCount()).isEqualTo(2);
        assertThat(namespaces).hasSize(2);
    }

    @Test
    void anOperatorCanBeStartedByTheTestWithMoreOptions() {
        TestExecutionSummary summary = run(LateStart.class);
        assertThat(summary.getFailures()).extracting(failure -> failure.getException().toString()).isEmpty();
        assertThat(summary.getTestsSucceededCount()).isEqualTo(1);
    }

    @Test
    void aTestClassWithoutHandlersFailsWithOneClearMessage() {
        TestExecutionSummary summary = run(NoHandlers.class);
        assertThat(summary.getTotalFailureCount()).isEqualTo(1);
        assertThat(summary.getFailures().get(0).getException())
                .hasMessageContaining("@KopfTest on " + NoHandlers.class.getName() + " names no handlers");
    }

    /**
     * Runs test classes in a launcher of their own (so a cluster of their own), with Jupiter's
     * parallel execution of classes on.
     */
    private static TestExecutionSummary run(Class<?>... classes) {
        LauncherDiscoveryRequest request = LauncherDiscoveryRequestBuilder.request()
                .selectors(java.util.Arrays.stream(classes).map(c -> selectClass(c)).toList())
                .configurationParameter("junit.jupiter.execution.parallel.enabled", "true")
                .configurationParameter("junit.jupiter.execution.parallel.mode.classes.default", "concurrent")
                .configurationParameter("junit.jupiter.execution.parallel.config.strategy", "fixed")
                .configurationParameter("junit.jupiter.execution.parallel.config.fixed.parallelism", "2")
                .build();
        SummaryGeneratingListener listener = new SummaryGeneratingListener();
        LauncherFactory.create().execute(request, listener);
        return listener.getSummary();
    }

    /** Creates an object named after the class and checks that only its own operator handled it. */
    private static void handleOwnObjectConcurrently(KopfHarness kopf, String name) throws InterruptedException {
        CountDownLatch latch = bothRunning;
        Assumptions.assumeTrue(latch != null, "run by KopfExtensionTest only");
        namespaces.add(kopf.namespace());
        kopf.apply("""
                apiVersion: kopf.dev/v1
                kind: KopfExample
                metadata: {name: %s}
                spec: {}
                """.formatted(name));
        kopf.awaitLogged(kopf.about(name) + "Handler 'create' succeeded.");
        latch.countDown();
        assertThat(latch.await(60, TimeUnit.SECONDS)).as("the other class runs at the same time").isTrue();
        assertThat(kopf.output()).doesNotContain(name.equals("ex-a") ? "ex-b" : "ex-a");
    }

    @KopfTest(crds = "../examples/crd.yaml", handlers = ExampleOperator.class)
    static class ParallelA {
        @Test
        void handlesItsObject(KopfHarness kopf) throws InterruptedException {
            handleOwnObjectConcurrently(kopf, "ex-a");
        }
    }

    @KopfTest(crds = "../examples/crd.yaml", handlers = ExampleOperator.class)
    static class ParallelB {
        @Test
        void handlesItsObject(KopfHarness kopf) throws InterruptedException {
            handleOwnObjectConcurrently(kopf, "ex-b");
        }
    }

    @KopfTest(crds = "../examples/crd.yaml", handlers = ExampleOperator.class, scope = KopfTest.Scope.METHOD)
    @TestMethodOrder(MethodOrderer.OrderAnnotation.class)
    static class PerMethod {
        @Test
        @Order(1)
        void first(KopfHarness kopf) {
            kopf.apply(Path.of("../examples/obj.yaml"));
            kopf.awaitLogged(kopf.about("kopf-example-1") + "Handler 'create' succeeded.");
            namespaces.add(kopf.namespace());
        }

        @Test
        @Order(2)
        void second(KopfHarness kopf) {
            assertThat(kopf.get("kopf.dev/v1", "KopfExample", "kopf-example-1")).as("a fresh namespace").isNull();
            assertThat(kopf.output()).doesNotContain("kopf-example-1");
            namespaces.add(kopf.namespace());
        }
    }

    @KopfTest(crds = "../examples/crd.yaml", handlers = ExampleOperator.class, start = false, args = {})
    static class LateStart {
        @Test
        void startsWhenAsked(KopfHarness kopf) {
            assertThatThrownBy(kopf::runner).hasMessageContaining("not started");
            kopf.apply(Path.of("../examples/obj.yaml"));
            KopfRunner runner = kopf.start("-v");
            // A debug line, logged only because -v was given at the start; it follows the handler's
            // success, so it is awaited rather than looked for right after that success.
            kopf.awaitLogged(kopf.about("kopf-example-1") + "Handling cycle is finished");
            assertThat(runner.output()).contains("Handler 'create' succeeded.");
            kopf.stop();
            assertThat(runner.isRunning()).isFalse();
        }
    }

    @KopfTest(crds = "../examples/crd.yaml")
    static class NoHandlers {
        @Test
        void neverRuns() {
        }
    }
}
