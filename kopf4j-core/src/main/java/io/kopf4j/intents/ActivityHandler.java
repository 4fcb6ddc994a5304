package io.kopf4j.intents;

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
 * An operator-level handler, Kopf's activities: {@code @On.Startup}, {@code @On.Cleanup} and
 * {@code @On.Probe}. It may declare {@link OperatorSettings}, {@link Memo}, {@link Logger} and
 * {@code int retry}.
 *
 * @param kind startup, cleanup or probe (Kopf's activity names, also in the logger's name)
 * @param id the handler id (for probes: the key of the result)
 * @param retries give up after this many attempts, or null (startup and cleanup)
 * @param backoff the delay after an arbitrary exception, or null for the default
 * @param method the handler method
 * @param target the instance it is called on (null for static methods)
 * @param origin where it was declared, for messages
 */
public record ActivityHandler(String kind, String id, Integer retries, Duration backoff, Method method, Object target,
                              String origin) {
    /** Checks the parameters now, at startup. */
    public ActivityHandler {
        for (Parameter parameter : method.getParameters()) {
            Class<?> type = parameter.getType();
            if (type != Memo.class && type != Logger.class && type != OperatorSettings.class && type != int.class) {
                throw new InvalidHandlerException("Handler " + origin + ": unsupported parameter '" + parameter.getName()
                        + "' of type " + type.getSimpleName() + "; " + kind + " handlers may declare OperatorSettings, Memo,"
                        + " Logger and int retry");
            }
        }
        if (!method.trySetAccessible()) {
            throw new InvalidHandlerException("Handler " + origin + " is not accessible to kopf4j: make it public");
        }
        target = Modifier.isStatic(method.getModifiers()) ? null : target;
    }

    public Object call(OperatorSettings settings, Memo memo, Logger logger, int retry) throws Exception {
        Class<?>[] types = method.getParameterTypes();
        Object[] arguments = new Object[types.length];
        for (int i = 0; i < types.length; i++) {
            arguments[i] = types[i] == Memo.class ? memo : types[i] == Logger.class ? logger
                    : types[i] == OperatorSettings.class ? settings : Integer.valueOf(retry);
        }
        try {
            return method.invoke(target, arguments);
        } catch (InvocationTargetException e) {
            throw e.getCause() instanceof Exception cause ? cause : e;
        }
    }
}
