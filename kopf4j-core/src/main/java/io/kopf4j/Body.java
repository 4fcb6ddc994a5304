package io.kopf4j;

import java.util.Map;
import java.util.function.Supplier;

/**
 * The whole object as the API server last reported it, read-only.
 *
 * <pre>{@code
 * @On.Create("kopfexamples")
 * void create(Body body, Logger logger) { logger.info("{} {}", body.kind(), body.meta().name()); }
 * }</pre>
 */
public final class Body extends ObjectView {
    private final Meta meta;
    private final Spec spec;
    private final Status status;

    /**
     * A view of an object's fields, as parsed from JSON (for tests and custom tooling).
     *
     * @param fields the object; not copied, and null means empty
     */
    public Body(Map<String, Object> fields) {
        super(fields, "");
        this.meta = new Meta(section("metadata"));
        this.spec = new Spec(section("spec"));
        this.status = new Status(section("status"));
    }

    private Body(Supplier<Map<String, Object>> latest) {
        super(latest, "");
        this.meta = Meta.live(() -> sectionOf(latest.get(), "metadata"));
        this.spec = Spec.live(() -> sectionOf(latest.get(), "spec"));
        this.status = Status.live(() -> sectionOf(latest.get(), "status"));
    }

    /**
     * A live view (Kopf's for daemons and timers): the body and its {@code spec}, {@code meta} and
     * {@code status} read the latest state the source gives at every access, so that a long-running
     * daemon sees the object's changes. {@link #as(Class)} takes a snapshot.
     *
     * <pre>{@code
     * AtomicReference<Map<String, Object>> latest = new AtomicReference<>(Map.of("spec", Map.of("size", 1)));
     * Body body = Body.live(latest::get);
     * latest.set(Map.of("spec", Map.of("size", 2)));
     * body.spec().get("size");   // 2
     * }</pre>
     *
     * @param latest gives the object's latest fields; null means empty
     * @return the live view
     */
    public static Body live(Supplier<Map<String, Object>> latest) {
        return new Body(latest);
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> sectionOf(Map<String, Object> fields, String key) {
        Object value = fields == null ? null : fields.get(key);
        return value instanceof Map<?, ?> map ? (Map<String, Object>) map : null;
    }

    /** {@return the object's {@code apiVersion}, e.g. {@code kopf.dev/v1}} */
    public String apiVersion() {
        return string("apiVersion");
    }

    /** {@return the object's {@code kind}, e.g. {@code KopfExample}} */
    public String kind() {
        return string("kind");
    }

    /** {@return the object's {@code metadata}} */
    public Meta meta() {
        return meta;
    }

    /** {@return the object's {@code spec}; empty if it has none} */
    public Spec spec() {
        return spec;
    }

    /** {@return the object's {@code status}; empty if it has none} */
    public Status status() {
        return status;
    }
}
