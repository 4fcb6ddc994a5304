import io.kopf4j.On;
import io.kopf4j.Spec;
import java.util.Map;
import org.slf4j.Logger;

/**
 * The smallest operator: it logs each new KopfExample and stores a message in its status.
 *
 *   ./kopf4j run --local-cluster --crd examples/crd.yaml examples/01-minimal/Example.java
 */
public class Example {
    @On.Create("kopfexamples")
    public Map<String, Object> create(Spec spec, String name, Logger logger) {
        logger.info("Created {} with spec: {}", name, spec);
        return Map.of("message", "Resource " + name + " created successfully");
    }
}
