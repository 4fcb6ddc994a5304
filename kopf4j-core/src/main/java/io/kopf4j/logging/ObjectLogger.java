package io.kopf4j.logging;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.Marker;
import org.slf4j.event.Level;
import org.slf4j.helpers.AbstractLogger;
import org.slf4j.spi.LoggingEventBuilder;

/**
 * The logger handlers get: Kopf's {@code kopf.objects} logger, every line prefixed with
 * {@code [namespace/name]} (or {@code [name]} for cluster-scoped objects), so that users' alerts
 * and habits carry over from Kopf.
 */
public final class ObjectLogger extends AbstractLogger {
    private static final long serialVersionUID = 1L;
    public static final String NAME = "kopf.objects";

    private final transient Logger delegate;
    private final String prefix;

    public ObjectLogger(String namespace, String name) {
        this(LoggerFactory.getLogger(NAME), namespace, name);
    }

    ObjectLogger(Logger delegate, String namespace, String name) {
        this.delegate = delegate;
        this.name = delegate.getName();
        this.prefix = "[" + (namespace == null ? name : namespace + "/" + name) + "] ";
    }

    /** The {@code [namespace/name] } prefix, for messages built elsewhere. */
    public String prefix() {
        return prefix;
    }

    @Override
    protected String getFullyQualifiedCallerName() {
        return null;
    }

    @Override
    protected void handleNormalizedLoggingCall(Level level, Marker marker, String message, Object[] arguments,
                                               Throwable throwable) {
        LoggingEventBuilder event = delegate.atLevel(level).setMessage(prefix + message);
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
    }

    @Override
    public boolean isTraceEnabled() {
        return delegate.isTraceEnabled();
    }

    @Override
    public boolean isTraceEnabled(Marker marker) {
        return delegate.isTraceEnabled(marker);
    }

    @Override
    public boolean isDebugEnabled() {
        return delegate.isDebugEnabled();
    }

    @Override
    public boolean isDebugEnabled(Marker marker) {
        return delegate.isDebugEnabled(marker);
    }

    @Override
    public boolean isInfoEnabled() {
        return delegate.isInfoEnabled();
    }

    @Override
    public boolean isInfoEnabled(Marker marker) {
        return delegate.isInfoEnabled(marker);
    }

    @Override
    public boolean isWarnEnabled() {
        return delegate.isWarnEnabled();
    }

    @Override
    public boolean isWarnEnabled(Marker marker) {
        return delegate.isWarnEnabled(marker);
    }

    @Override
    public boolean isErrorEnabled() {
        return delegate.isErrorEnabled();
    }

    @Override
    public boolean isErrorEnabled(Marker marker) {
        return delegate.isErrorEnabled(marker);
    }
}
