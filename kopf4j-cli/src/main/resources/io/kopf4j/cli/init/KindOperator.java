package {{package}};

import io.kopf4j.On;
import org.slf4j.Logger;

/**
 * The operator: what happens when a {{kind}} is created, changed or deleted. kopf4j calls each
 * method with the parameters it declares (the typed spec, the whole object, its name, a logger
 * that prefixes lines with [namespace/name], ...) and stores what it returns in the object's
 * status.METHOD. A method that throws is retried.
 */
public class {{kind}}Operator {
    /** A new {{kind}}: the result goes to status.create. */
    @On.Create("{{plural}}.{{group}}")
    public {{kind}}Status.HandlerResult create({{kind}}Spec spec, String name, Logger logger) {
        logger.info("Creating {} with {} replica(s): {}", name, spec.replicas(), spec.message());
        return new {{kind}}Status.HandlerResult("created with " + spec.replicas() + " replica(s): " + spec.message());
    }

    /** A changed {{kind}} (its spec, labels or annotations): the result goes to status.update. */
    @On.Update("{{plural}}.{{group}}")
    public {{kind}}Status.HandlerResult update({{kind}} updated, Logger logger) {
        {{kind}}Spec spec = updated.getSpec();
        logger.info("Updating {} to {} replica(s): {}", updated.getMetadata().getName(), spec.replicas(), spec.message());
        return new {{kind}}Status.HandlerResult("updated to " + spec.replicas() + " replica(s): " + spec.message());
    }

    /** A {{kind}} being deleted: kopf4j's finalizer keeps it until this method has succeeded. */
    @On.Delete("{{plural}}.{{group}}")
    public void delete(String name, Logger logger) {
        logger.info("Deleting {}", name);
    }
}
