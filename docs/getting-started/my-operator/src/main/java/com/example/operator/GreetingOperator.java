package com.example.operator;

import io.kopf4j.On;
import org.slf4j.Logger;

/**
 * The operator: what happens when a Greeting is created, changed or deleted. kopf4j calls each
 * method with the parameters it declares (the typed spec, the whole object, its name, a logger
 * that prefixes lines with [namespace/name], ...) and stores what it returns in the object's
 * status.METHOD. A method that throws is retried.
 */
public class GreetingOperator {
    /** A new Greeting: the result goes to status.create. */
    @On.Create("greetings.example.com")
    public GreetingStatus.HandlerResult create(GreetingSpec spec, String name, Logger logger) {
        logger.info("Creating {} with {} replica(s): {}", name, spec.replicas(), spec.message());
        return new GreetingStatus.HandlerResult("created with " + spec.replicas() + " replica(s): " + spec.message());
    }

    /** A changed Greeting (its spec, labels or annotations): the result goes to status.update. */
    @On.Update("greetings.example.com")
    public GreetingStatus.HandlerResult update(Greeting updated, Logger logger) {
        GreetingSpec spec = updated.getSpec();
        logger.info("Updating {} to {} replica(s): {}", updated.getMetadata().getName(), spec.replicas(), spec.message());
        return new GreetingStatus.HandlerResult("updated to " + spec.replicas() + " replica(s): " + spec.message());
    }

    /** A Greeting being deleted: kopf4j's finalizer keeps it until this method has succeeded. */
    @On.Delete("greetings.example.com")
    public void delete(String name, Logger logger) {
        logger.info("Deleting {}", name);
    }
}
