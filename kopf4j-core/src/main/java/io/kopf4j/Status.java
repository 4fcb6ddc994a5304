package io.kopf4j;

import java.util.Map;

/** The object's {@code status}, read-only; empty if the object has none. */
public final class Status extends ObjectView {
    /**
     * A view of an object's {@code status}.
     *
     * @param fields the status; null means empty
     */
    public Status(Map<String, Object> fields) {
        super(fields, "status");
    }
}
