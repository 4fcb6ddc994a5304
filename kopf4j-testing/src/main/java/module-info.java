/**
 * kopf4j's test kit: an operator run in the test's JVM ({@link io.kopf4j.testing.KopfRunner}) and
 * the JUnit 5 extension that gives a test a local cluster and the operator under test
 * ({@link io.kopf4j.testing.KopfTest}). The cluster is kopf4j-envtest's, required transitively.
 */
@SuppressWarnings({"requires-automatic", "requires-transitive-automatic"})
module io.kopf4j.testing {
    exports io.kopf4j.testing;

    requires transitive io.kopf4j;
    requires transitive io.kopf4j.envtest;   // LocalCluster and TemporaryNamespace in its API
    requires io.kopf4j.loading;   // KopfRunner parses the run options and loads handlers as the command does
    requires info.picocli;
    requires kubernetes.model.core;
    requires ch.qos.logback.classic;   // KopfRunner captures the operator's log lines
    requires ch.qos.logback.core;
    // Optional, as in the pom: only the JUnit extension (@KopfTest) uses them, and tests that use it have them.
    requires static org.junit.jupiter.api;
    requires static org.junit.platform.commons;
    requires static awaitility;
}
