package io.kopf4j.intents;

import io.kopf4j.ActivityContext;
import io.kopf4j.ActivityFn;
import io.kopf4j.InvalidHandlerException;
import io.kopf4j.Memo;
import io.kopf4j.OperatorSettings;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.Parameter;
import java.time.Duration;
import org.slf4j.Logger;

/**
 * An operator-level handler, Kopf's activities: startup, cleanup, authentication (login) and probe.
 *
 * @param kind one of {@link #STARTUP}, {@link #CLEANUP}, {@link #AUTHENTICATION}, {@link #PROBE} (Kopf's
 *             activity names, also in the logger's name {@code kopf.activities.<kind>})
 * @param id the handler id (for probes: the key of the result)
 * @param retries give up after this many attempts, or null
 * @param backoff the delay after an arbitrary exception, or null for the default
 * @param function what it does
 * @param origin where it was declared, for messages
 */
public record ActivityHandler(String kind, String id, Integer retries, Duration backoff, ActivityFn function,
                              String origin) {
    public static final String STARTUP = "startup";
    public static final String CLEANUP = "cleanup";
    /** Kopf's name of the login activity, also in its logger's name. */
    public static final String AUTHENTICATION = "authentication";
    public static final String PROBE = "probe";

    /** Kopf's name of an activity handler in log lines: {@code Activity 'id'}. */
    @Override
    public String toString() {
        return "Activity '" + id + "'";
    }

    /**
     * An annotated method as an activity function; its parameters are checked now, at startup.
     * It may declare {@link ActivityContext}, {@link OperatorSettings}, {@link Memo}, {@link Logger}
     * and {@code int retry}.
     */
    public static ActivityFn bind(String kind, Method method, Object target, String origin) {
        for (Parameter parameter : method.getParameters()) {
            Class<?> type = parameter.getType();
            if (type != ActivityContext.class && type != Memo.class && type != Logger.class
                    && type != OperatorSettings.class && type != int.class) {
                throw new InvalidHandlerException("Handler " + origin + ": unsupported parameter '" + parameter.getName()
                        + "' of type " + type.getSimpleName() + "; " + kind + " handlers may declare ActivityContext,"
                        + " OperatorSettings, Memo, Logger and int retry");
            }
        }
        if (!method.trySetAccessible()) {
            throw new InvalidHandlerException("Handler " + origin + " is not accessible to kopf4j: make it public");
        }
        Object instance = Modifier.isStatic(method.getModifiers()) ? null : target;
        Class<?>[] types = method.getParameterTypes();
        return context -> {
            Object[] arguments = new Object[types.length];
            for (int i = 0; i < types.length; i++) {
                arguments[i] = types[i] == ActivityContext.class ? context
                        : types[i] == Memo.class ? context.memo()
                        : types[i] == Logger.class ? context.logger()
                        : types[i] == OperatorSettings.class ? context.settings()
                        : Integer.valueOf(context.retry());
            }
            try {
                return method.invoke(instance, arguments);
            } catch (InvocationTargetException e) {
                throw e.getCause() instanceof Exception cause ? cause : e;
            }
        };
    }

    /** Calls the handler once. */
    public Object call(OperatorSettings settings, Memo memo, Logger logger, int retry) throws Exception {
        return function.call(new Context(settings, memo, logger, retry));
    }

    private record Context(OperatorSettings settings, Memo memo, Logger logger, int retry) implements ActivityContext {
    }
}
