package io.kopf4j.logging;

import io.kopf4j.OperatorSettings;
import java.util.Map;

/**
 * Where Kubernetes Events go: what the object loggers and the handlers' contexts need of the
 * posting engine ({@code engines.EventPoster}), behind an interface so that the flow of an event
 * does not depend on the engines beside it, and tests can collect events in memory.
 *
 * <pre>{@code
 * sink.info(body, "Created", "the database is ready");   // a Normal Event about the object
 * }</pre>
 */
public interface EventSink {
    /** The posting settings in force: level, loggers, enabled. */
    OperatorSettings.Posting settings();

    /** Posts one event about the object with this reference (apiVersion, kind, name, uid, namespace). */
    void post(Map<String, Object> reference, String type, String reason, String message);

    /** Kopf's {@code kopf.event}: one event per object, whatever the posting level. */
    void event(Object objects, String type, String reason, String message);

    /** Kopf's {@code kopf.info}: a {@code Normal} event per object, if the posting level allows. */
    void info(Object objects, String reason, String message);

    /** Kopf's {@code kopf.warn}: a {@code Warning} event per object, if the posting level allows. */
    void warn(Object objects, String reason, String message);

    /** Kopf's {@code kopf.exception}: an {@code Error} event per object, if the posting level allows. */
    void exception(Object objects, String reason, String message, Throwable error);
}
