import io.kopf4j.On;
import org.slf4j.Logger;

/**
 * Kopf's 09-testing: an operator tested as a whole, on a real cluster, with {@code KopfRunner}
 * (kopf4j-testing): TestingExampleTest.java beside this file is the example, written as a user's
 * test would be, with JUnit 5.
 *
 *   ./kopf4j run --local-cluster --crd examples/crd.yaml examples/09-testing/TestingExample.java
 *   mvn -pl examples verify -Dtest=TestingExampleTest     # KUBEBUILDER_ASSETS: see docs/testing.md
 */
public class TestingExample {
    @On.Create(value = "kopfexamples", id = "create_fn")
    public void create(Logger logger) {
        logger.info("Something was logged here.");
    }
}
