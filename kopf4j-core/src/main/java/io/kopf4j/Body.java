package io.kopf4j;

import java.util.Map;

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
