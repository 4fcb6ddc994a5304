package com.example.operator;

import io.kopf4j.On;
import io.kopf4j.Spec;
import java.util.Map;
import org.slf4j.Logger;

/** The operator's handlers, for the KopfExample objects of crd.yaml. */
public class Handlers {
    /** Greets each new KopfExample; kopf4j stores the returned map in its status.create. */
    @On.Create("kopfexamples")
    public Map<String, Object> create(Spec spec, String name, Logger logger) {
        logger.info("Created {} with spec: {}", name, spec);
        return Map.of("message", "Hello, " + name);
    }
}
