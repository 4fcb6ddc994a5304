package io.kopf4j;

import java.util.Map;
import java.util.function.Supplier;

/**
 * The object's {@code status}, read-only; empty if the object has none.
 *
 * <pre>{@code
 * @On.Update("kopfexamples")
 * void update(Status status, Logger logger) {
 *     logger.info("phase: {}", status.getString("phase", "Pending"));
 * }
 * }</pre>
 */
public final class Status extends ObjectView {
    /**
     * A view of an object's {@code status}.
     *
     * @param fields the status; null means empty
     */
    public Status(Map<String, Object> fields) {
        super(fields, "status");
    }

    private Status(Supplier<Map<String, Object>> source) {
        super(source, "status");
    }

    /** A live view: every access reads the latest {@code status} the source gives (daemons' views). */
    static Status live(Supplier<Map<String, Object>> source) {
        return new Status(source);
    }
}
