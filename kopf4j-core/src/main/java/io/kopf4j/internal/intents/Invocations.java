package io.kopf4j.internal.intents;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;

/**
 * Calls handler methods through method handles resolved once, at startup, so that what they throw
 * reaches the execution as thrown.
 *
 * <p>Not {@link Method#invoke}: its accessor adds three frames (and a wrapping exception) to every
 * call, and a daemon keeps its call's frames for as long as it runs: for ten thousand parked
 * daemons, each frame costs ten thousand times its size in virtual threads' stacks.
 *
 * <pre>{@code
 * MethodHandle handle = Invocations.spread(method, target);   // (Object[]) -> Object
 * Object result = Invocations.invoke(handle, arguments);
 * // or, without the frame of invoke (a daemon's call): the same in the caller
 * try {
 *     return (Object) handle.invokeExact(arguments);
 * } catch (Throwable thrown) {
 *     throw Invocations.asThrown(thrown);
 * }
 * }</pre>
 */
final class Invocations {
    private Invocations() {
    }

    /**
     * The method, made accessible by the caller, as a handle of type {@code (Object[])Object} on
     * {@code receiver} (ignored for static methods): the array's items are its arguments, a void
     * method returns null, a primitive result comes boxed.
     */
    static MethodHandle spread(Method method, Object receiver) {
        MethodHandle handle;
        try {
            handle = MethodHandles.lookup().unreflect(method);
        } catch (IllegalAccessException e) {
            throw new IllegalStateException("Handler " + ParameterBinder.describe(method) + " is not accessible", e);
        }
        if (!Modifier.isStatic(method.getModifiers())) {
            handle = handle.bindTo(receiver);
        }
        int arity = method.getParameterCount();
        return handle.asType(MethodType.genericMethodType(arity)).asSpreader(Object[].class, arity);
    }

    /**
     * Invokes a handle of {@link #spread}; what it throws is thrown as {@link #asThrown} says.
     */
    static Object invoke(MethodHandle spread, Object[] arguments) throws Exception {
        try {
            return (Object) spread.invokeExact(arguments);
        } catch (Throwable thrown) {
            throw asThrown(thrown);
        }
    }

    /**
     * What a handler method threw, to throw on as it is: an exception is returned, an {@link Error}
     * thrown at once, so that its type decides the outcome and its own message is stored and
     * logged. (Any other {@link Throwable} comes wrapped in an {@link InvocationTargetException},
     * as from {@link Method#invoke}.)
     */
    static Exception asThrown(Throwable thrown) {
        if (thrown instanceof Error error) {
            throw error;
        }
        return thrown instanceof Exception exception ? exception : new InvocationTargetException(thrown);
    }
}
