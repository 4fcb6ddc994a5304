package io.kopf4j.intents;

import io.kopf4j.InvalidHandlerException;
import io.kopf4j.Memo;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.Parameter;
import java.util.function.BiFunction;
import org.slf4j.Logger;

/**
 * An {@code @On.Probe} handler: called for the liveness endpoint, its result reported under its id.
 *
 * @param id the key of its result
 * @param method the handler method
 * @param target the instance it is called on (null for static methods)
 * @param origin where it was declared, for messages
 */
public record ProbeHandler(String id, Method method, Object target, String origin) {
    /** Checks the parameters now: probes may declare only {@code Memo} and {@code Logger}. */
    public ProbeHandler {
        for (Parameter parameter : method.getParameters()) {
            if (parameter.getType() != Memo.class && parameter.getType() != Logger.class) {
                throw new InvalidHandlerException("Probe " + origin + ": unsupported parameter '" + parameter.getName()
                        + "' of type " + parameter.getType().getSimpleName() + "; probes may declare Memo and Logger");
            }
        }
        if (!method.trySetAccessible()) {
            throw new InvalidHandlerException("Probe " + origin + " is not accessible to kopf4j: make it public");
        }
        target = Modifier.isStatic(method.getModifiers()) ? null : target;
    }

    public Object call(Memo memo, Logger logger) throws Exception {
        BiFunction<Class<?>, Integer, Object> argument = (type, index) -> type == Memo.class ? memo : logger;
        Class<?>[] types = method.getParameterTypes();
        Object[] arguments = new Object[types.length];
        for (int i = 0; i < types.length; i++) {
            arguments[i] = argument.apply(types[i], i);
        }
        try {
            return method.invoke(target, arguments);
        } catch (InvocationTargetException e) {
            throw e.getCause() instanceof Exception cause ? cause : e;
        }
    }
}
