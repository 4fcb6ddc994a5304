package io.kopf4j.internal.logging;

import io.kopf4j.internal.structs.ObjectReferences;
import java.util.Map;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.Marker;
import org.slf4j.event.Level;
import org.slf4j.helpers.AbstractLogger;
import org.slf4j.helpers.MessageFormatter;
import org.slf4j.spi.LoggingEventBuilder;

/**
 * The logger of one object: Kopf's {@code kopf.objects} logger, every line prefixed with
 * {@code [namespace/name]} (or {@code [name]} for cluster-scoped objects) in text formats, so that
 * users' alerts and habits carry over from Kopf ({@code [namespace/Kind/name]} if
 * {@link LogSetup#prefixKind(boolean)}, for handlers of several resources), and carrying the object's reference as the
 * key-value pair {@value #REFERENCE} for JSON logs.
 *
 * <p>Two variants, as Kopf's: the {@link #posting posting} one (Kopf's {@code ObjectLogger}) for
 * change-detecting handlers, whose messages also become Kubernetes Events, and the {@link #local
 * local} one (Kopf's {@code LocalObjectLogger}) for event handlers, called for every watch-event,
 * and for the framework's own lines about the object, which never become Events.
 *
 * <pre>{@code
 * ObjectLogger logger = ObjectLogger.local(body);
 * logger.info("Handling it.");   // [default/kopf-example-1] Handling it.
 * }</pre>
 */
public final class ObjectLogger extends AbstractLogger {
    private static final long serialVersionUID = 1L;
    /** The logger name of all object loggers, Kopf's: a logging configuration sets their level by it. */
    public static final String NAME = "kopf.objects";
    /** The key of the object reference in log events; JSON logs write it under the refkey. */
    public static final String REFERENCE = "kopf4j.object";

    private static final Logger DELEGATE = LoggerFactory.getLogger(NAME);

    /**
     * The object's reference, shared by its loggers ({@link #local()}); the prefixes are made from it
     * at each line rather than kept: an operator with ten thousand daemons keeps two loggers per object.
     */
    private final transient Map<String, Object> reference;
    private final transient EventSink poster;
    /** Kopf's terse logger: each level is logged only where the level below it would be (warnings always). */
    private final boolean terse;

    private ObjectLogger(Map<String, Object> reference, EventSink poster, boolean terse) {
        this.poster = poster;
        this.terse = terse;
        this.name = NAME;
        this.reference = reference;
    }

    /**
     * The logger of the object with this body whose messages from {@code settings.posting.level}
     * up also become Kubernetes Events (reason {@code Logging}), if {@code settings.posting.loggers}.
     *
     * @param body the object's body, with {@code apiVersion}, {@code kind} and {@code metadata}
     * @param poster where the Events go
     * @return a logger of that object
     */
    public static ObjectLogger posting(Map<String, Object> body, EventSink poster) {
        return new ObjectLogger(ObjectReferences.of(body), Objects.requireNonNull(poster, "a posting logger needs the poster"),
                false);
    }

    /**
     * The logger of the object with this body whose messages never become Kubernetes Events.
     *
     * @param body the object's body, with {@code apiVersion}, {@code kind} and {@code metadata}
     * @return a logger of that object
     */
    public static ObjectLogger local(Map<String, Object> body) {
        return new ObjectLogger(ObjectReferences.of(body), null, false);
    }

    /** {@return the local logger of the same object}: its lines never become Kubernetes Events */
    public ObjectLogger local() {
        return poster == null && !terse ? this : new ObjectLogger(reference, null, false);
    }

    /**
     * Kopf's {@code TerseObjectLogger}, for indexing functions, which run for thousands of objects at
     * every change: a local logger whose infos show only in the verbose mode (debug), and debugs never.
     *
     * @param body the object's body, with {@code apiVersion}, {@code kind} and {@code metadata}
     * @return a terse logger of that object
     */
    public static ObjectLogger terse(Map<String, Object> body) {
        return new ObjectLogger(ObjectReferences.of(body), null, true);
    }

    @Override
    protected String getFullyQualifiedCallerName() {
        return null;
    }

    @Override
    protected void handleNormalizedLoggingCall(Level level, Marker marker, String message, Object[] arguments,
                                               Throwable throwable) {
        LoggingEventBuilder event = DELEGATE.atLevel(level)
                .setMessage(LogSetup.prefix() ? prefix() + message : message)
                .addKeyValue(REFERENCE, reference);
        if (marker != null) {
            event = event.addMarker(marker);
        }
        if (arguments != null) {
            for (Object argument : arguments) {
                event = event.addArgument(argument);
            }
        }
        if (throwable != null) {
            event = event.setCause(throwable);
        }
        event.log();
        if (poster != null && poster.settings().loggers && level.toInt() >= poster.settings().level.toInt()) {
            String text = MessageFormatter.basicArrayFormat(message, arguments);
            poster.post(reference, typeOf(level), "Logging", throwable == null ? text : text + " " + throwable);
        }
    }

    /** {@code [namespace/name] }, or {@code [namespace/Kind/name] } if {@link LogSetup#prefixKind()}. */
    private String prefix() {
        Object namespace = reference.get("namespace");
        String where = namespace == null ? "" : namespace + "/";
        String kind = LogSetup.prefixKind() ? reference.get("kind") + "/" : "";
        return "[" + where + kind + reference.get("name") + "] ";
    }

    /** Kopf's event types for log levels. */
    private static String typeOf(Level level) {
        return switch (level) {
            case ERROR -> "Error";
            case WARN -> "Warning";
            case INFO -> "Normal";
            default -> "Debug";
        };
    }

    @Override
    public boolean isTraceEnabled() {
        return !terse && DELEGATE.isTraceEnabled();
    }

    @Override
    public boolean isTraceEnabled(Marker marker) {
        return !terse && DELEGATE.isTraceEnabled(marker);
    }

    @Override
    public boolean isDebugEnabled() {
        return terse ? DELEGATE.isTraceEnabled() : DELEGATE.isDebugEnabled();
    }

    @Override
    public boolean isDebugEnabled(Marker marker) {
        return terse ? DELEGATE.isTraceEnabled(marker) : DELEGATE.isDebugEnabled(marker);
    }

    @Override
    public boolean isInfoEnabled() {
        return terse ? DELEGATE.isDebugEnabled() : DELEGATE.isInfoEnabled();
    }

    @Override
    public boolean isInfoEnabled(Marker marker) {
        return terse ? DELEGATE.isDebugEnabled(marker) : DELEGATE.isInfoEnabled(marker);
    }

    @Override
    public boolean isWarnEnabled() {
        return DELEGATE.isWarnEnabled();
    }

    @Override
    public boolean isWarnEnabled(Marker marker) {
        return DELEGATE.isWarnEnabled(marker);
    }

    @Override
    public boolean isErrorEnabled() {
        return DELEGATE.isErrorEnabled();
    }

    @Override
    public boolean isErrorEnabled(Marker marker) {
        return DELEGATE.isErrorEnabled(marker);
    }
}
