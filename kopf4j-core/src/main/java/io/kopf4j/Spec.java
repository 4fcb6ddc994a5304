package io.kopf4j;

import java.util.Map;
import java.util.function.Supplier;

/**
 * The object's {@code spec}, read-only; empty if the object has none. A handler that prefers its
 * own type declares it instead, named {@code spec}, and gets the spec converted (see
 * {@link ObjectView#as(Class)}).
 *
 * <pre>{@code
 * @On.Create("kopfexamples")
 * void create(Spec spec) { int replicas = spec.getInt("replicas", 1); }
 *
 * record DatabaseSpec(int replicas, String image) {}
 *
 * @On.Update("databases")
 * void update(DatabaseSpec spec) { ... }
 * }</pre>
 */
public final class Spec extends ObjectView {
    /**
     * A view of an object's {@code spec}.
     *
     * @param fields the spec; null means empty
     */
    public Spec(Map<String, Object> fields) {
        super(fields, "spec");
    }

    private Spec(Supplier<Map<String, Object>> source) {
        super(source, "spec");
    }

    /** A live view: every access reads the latest {@code spec} the source gives (daemons' views). */
    static Spec live(Supplier<Map<String, Object>> source) {
        return new Spec(source);
    }
}
