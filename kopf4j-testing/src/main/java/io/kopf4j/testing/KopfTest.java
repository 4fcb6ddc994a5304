package io.kopf4j.testing;

import io.kopf4j.envtest.LocalCluster;
import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A JUnit 5 test class of an operator on a real API server: one {@link LocalCluster} for the whole
 * test run, a fresh namespace per test class (or per test method), the CRDs applied, and the
 * operator of the handlers under test running in that namespace ({@link KopfRunner}); a
 * {@link KopfHarness} parameter gives all of it, with helpers to apply YAML, await objects' states
 * and check the operator's log lines. Test classes run in parallel safely: each has its namespace
 * and its operator, whose log lines are kept apart.
 *
 * <pre>{@code
 * @KopfTest(crds = "crd.yaml", handlers = Example.class)
 * class ExampleTest {
 *     @Test
 *     void storesTheResult(KopfHarness kopf) {
 *         kopf.apply(Path.of("obj.yaml"));
 *         kopf.awaitLogged(kopf.about("kopf-example-1") + "Handler 'create' succeeded.");
 *         kopf.await("kopf.dev/v1", "KopfExample", "kopf-example-1", obj -> obj.get("status") != null);
 *     }
 * }
 * }</pre>
 */
@Documented
@Inherited
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
@ExtendWith(KopfExtension.class)
public @interface KopfTest {
    /** {@return handler classes on the test's classpath, passed to {@code kopf4j run} by name} */
    Class<?>[] handlers() default {};

    /** {@return handler {@code .java} files or jars, relative to the working directory} */
    String[] sources() default {};

    /** {@return YAML files (CRDs and any other objects) applied to the cluster before the operator starts} */
    String[] crds() default {};

    /** {@return more options of {@code kopf4j run}; {@code -v} by default, for Kopf's "Handling cycle is finished" lines} */
    String[] args() default {"-v"};

    /** {@return whether a namespace and an operator are made for the whole class or for each test method} */
    Scope scope() default Scope.CLASS;

    /** {@return whether the operator starts before the tests; if not, a test calls {@link KopfHarness#start}} */
    boolean start() default true;

    /**
     * {@return whether the cluster runs kube-controller-manager (the garbage collector, namespace
     * deletion, the Deployment, ReplicaSet, StatefulSet and Job controllers); false for a control
     * plane alone, where a test plays the workload controllers itself with {@code setStatus};
     * {@code -Dkopf4j.envtest.controllers=false} turns them off for every test of the run}
     */
    boolean controllers() default true;

    /** {@return how many seconds the harness's waits last before they fail} */
    long timeout() default 60;

    /** What one namespace and one operator serve. */
    enum Scope {
        /** Every test method of the class, in order (the default). */
        CLASS,
        /** One test method. */
        METHOD
    }
}
