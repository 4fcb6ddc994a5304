package io.kopf4j.intents;

import io.kopf4j.InvalidHandlerException;
import io.kopf4j.On;
import io.kopf4j.Reason;
import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Set;

/** Finds the annotated handler methods of a class or an object and turns them into handlers. */
public final class HandlerScanner {
    private HandlerScanner() {
    }

    /** True if the class declares at least one kopf4j handler. */
    public static boolean declaresHandlers(Class<?> type) {
        return Arrays.stream(type.getDeclaredMethods()).anyMatch(m -> m.isAnnotationPresent(On.Create.class));
    }

    /**
     * The handlers of {@code target}: an instance, or a {@link Class} whose instance methods are
     * then called on one instance made with its no-argument constructor.
     */
    public static List<ChangingHandler> scan(Object target) {
        Class<?> type = target instanceof Class<?> c ? c : target.getClass();
        Method[] methods = type.getDeclaredMethods();
        Arrays.sort(methods, Comparator.comparing(Method::getName));   // a stable order across JVMs
        Object instance = target instanceof Class<?> ? null : target;
        List<ChangingHandler> handlers = new ArrayList<>();
        for (Method method : methods) {
            On.Create create = method.getAnnotation(On.Create.class);
            if (create == null) {
                continue;
            }
            if (instance == null && !Modifier.isStatic(method.getModifiers())) {
                instance = instantiate(type);
            }
            handlers.add(new ChangingHandler(idOf(create.id(), method), Set.of(Reason.CREATE),
                    selectorOf(method, create.value()), ParameterBinder.bind(instance, method),
                    ParameterBinder.describe(method)));
        }
        return handlers;
    }

    private static String idOf(String declared, Method method) {
        return declared.isEmpty() ? method.getName() : declared;
    }

    private static ResourceSelector selectorOf(Method method, String[] resource) {
        try {
            return ResourceSelector.parse(resource);
        } catch (IllegalArgumentException e) {
            throw new InvalidHandlerException("Handler " + ParameterBinder.describe(method) + ": " + e.getMessage());
        }
    }

    private static Object instantiate(Class<?> type) {
        try {
            Constructor<?> constructor = type.getDeclaredConstructor();
            if (!constructor.trySetAccessible()) {
                throw new InvalidHandlerException("Handler class " + type.getName() + ": its no-argument constructor is not accessible");
            }
            return constructor.newInstance();
        } catch (NoSuchMethodException e) {
            throw new InvalidHandlerException("Handler class " + type.getName()
                    + " has instance handler methods but no no-argument constructor: add one, make the methods static, "
                    + "or register an instance");
        } catch (InvocationTargetException e) {
            throw new InvalidHandlerException("Handler class " + type.getName() + ": its constructor failed: " + e.getCause());
        } catch (ReflectiveOperationException e) {
            throw new InvalidHandlerException("Handler class " + type.getName() + " cannot be instantiated: " + e);
        }
    }
}
