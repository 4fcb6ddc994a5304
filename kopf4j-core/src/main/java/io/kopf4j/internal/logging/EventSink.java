package io.kopf4j.internal.logging;

import io.kopf4j.KubernetesEvents;
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
public interface EventSink extends KubernetesEvents {
    /**
     * The posting settings in force: level, loggers, enabled.
     *
     * @return the operator's {@code settings.posting}, read at each post (it may change while running)
     */
    OperatorSettings.Posting settings();

    /**
     * Posts one event about the object with this reference (apiVersion, kind, name, uid, namespace).
     *
     * @param reference the object reference, e.g.
     *     {@code {apiVersion: v1, kind: Pod, name: p1, uid: ..., namespace: ns1}}
     * @param type {@code Normal}, {@code Warning} or {@code Error}
     * @param reason a short CamelCase cause, e.g. {@code "Created"}
     * @param message the human-readable text, e.g. {@code "the database is ready"}
     */
    void post(Map<String, Object> reference, String type, String reason, String message);

    /**
     * Kopf's {@code kopf.event}: one event per object, whatever the posting level.
     *
     * @param objects a {@code Body} or {@code Map}, a fabric8 {@code HasMetadata}, or an iterable or array of them
     * @param type e.g. {@code Normal} or {@code Warning}
     * @param reason a short CamelCase cause, e.g. {@code "Created"}
     * @param message the human-readable text, e.g. {@code "the database is ready"}
     */
    void event(Object objects, String type, String reason, String message);

    /**
     * Kopf's {@code kopf.info}: a {@code Normal} event per object, if the posting level allows.
     *
     * @param objects a {@code Body} or {@code Map}, a fabric8 {@code HasMetadata}, or an iterable or array of them
     * @param reason a short CamelCase cause, e.g. {@code "Created"}
     * @param message the human-readable text, e.g. {@code "the database is ready"}
     */
    void info(Object objects, String reason, String message);

    /**
     * Kopf's {@code kopf.warn}: a {@code Warning} event per object, if the posting level allows.
     *
     * @param objects a {@code Body} or {@code Map}, a fabric8 {@code HasMetadata}, or an iterable or array of them
     * @param reason a short CamelCase cause, e.g. {@code "Degraded"}
     * @param message the human-readable text, e.g. {@code "2 of 3 replicas are ready"}
     */
    void warn(Object objects, String reason, String message);

    /**
     * Kopf's {@code kopf.exception}: an {@code Error} event per object, if the posting level allows.
     *
     * @param objects a {@code Body} or {@code Map}, a fabric8 {@code HasMetadata}, or an iterable or array of them
     * @param reason a short CamelCase cause; empty for the exception's class name
     * @param message the text before the exception's message, e.g. {@code "Provisioning failed:"}
     * @param error the exception the event reports
     */
    void exception(Object objects, String reason, String message, Throwable error);
}
