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

    public Body(Map<String, Object> fields) {
        super(fields);
        this.meta = new Meta(section("metadata"));
        this.spec = new Spec(section("spec"));
        this.status = new Status(section("status"));
    }

    public String apiVersion() {
        return string("apiVersion");
    }

    public String kind() {
        return string("kind");
    }

    public Meta meta() {
        return meta;
    }

    public Spec spec() {
        return spec;
    }

    public Status status() {
        return status;
    }
}
