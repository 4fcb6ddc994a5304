package io.kopf4j.intents;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;

/** Calls handler methods by reflection so that what they throw reaches the execution as thrown. */
final class Invocations {
    private Invocations() {
    }

    /**
     * Invokes the method; an exception or {@link Error} it throws is thrown as it is, not wrapped
     * in an {@link InvocationTargetException}, so that its type decides the outcome and its own
     * message is stored and logged.
     */
    static Object invoke(Method method, Object receiver, Object[] arguments) throws Exception {
        try {
            return method.invoke(receiver, arguments);
        } catch (InvocationTargetException e) {
            Throwable thrown = e.getCause();
            if (thrown instanceof Error error) {
                throw error;
            }
            throw thrown instanceof Exception exception ? exception : e;
        }
    }
}
