package io.kopf4j.testing;

import io.kopf4j.On;
import java.util.Map;

/** The operator under test in docs/testing.md's example: a create and a delete handler. */
public class ExampleOperator {
    @On.Create("kopfexamples")
    public Map<String, Object> create(String name) {
        return Map.of("message", "hello, " + name);
    }

    @On.Delete("kopfexamples")
    public void delete() {
    }
}
