package io.kopf4j;

import java.util.Map;

/**
 * The object's {@code spec}, read-only; empty if the object has none.
 *
 * <pre>{@code
 * @On.Create("kopfexamples")
 * void create(Spec spec) { Object duration = spec.get("duration"); }
 * }</pre>
 */
public final class Spec extends ObjectView {
    /**
     * A view of an object's {@code spec}.
     *
     * @param fields the spec; null means empty
     */
    public Spec(Map<String, Object> fields) {
        super(fields);
    }
}
