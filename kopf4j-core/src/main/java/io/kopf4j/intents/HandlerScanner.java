package io.kopf4j.intents;

import io.kopf4j.ErrorsMode;
import io.kopf4j.InvalidHandlerException;
import io.kopf4j.On;
import io.kopf4j.Reason;
import io.kopf4j.structs.Dicts;
import java.lang.annotation.Annotation;
import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.time.Duration;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Set;

/** Finds the annotated handler methods of a class or an object and adds them to a registry. */
public final class HandlerScanner {
    private static final Set<Class<? extends Annotation>> ANNOTATIONS = Set.of(On.Create.class, On.Update.class,
            On.Delete.class, On.Resume.class, On.Field.class, On.Event.class);

    private HandlerScanner() {
    }

    /** True if the class declares at least one kopf4j handler. */
    public static boolean declaresHandlers(Class<?> type) {
        return Arrays.stream(type.getDeclaredMethods()).anyMatch(HandlerScanner::isHandler);
    }

    /**
     * Adds the handlers of {@code target} to the registry: an instance, or a {@link Class} whose
     * instance methods are then called on one instance made with its no-argument constructor.
     *
     * @throws InvalidHandlerException naming the method, if a handler is declared wrongly
     */
    public static void scan(Object target, HandlerRegistry registry) {
        Class<?> type = target instanceof Class<?> c ? c : target.getClass();
        Method[] methods = type.getDeclaredMethods();
        Arrays.sort(methods, Comparator.comparing(Method::getName));   // a stable order across JVMs
        Object instance = target instanceof Class<?> ? null : target;
        for (Method method : methods) {
            if (!isHandler(method)) {
                continue;
            }
            if (instance == null && !Modifier.isStatic(method.getModifiers())) {
                instance = instantiate(type);
            }
            HandlerFunction function = ParameterBinder.bind(instance, method);
            String origin = ParameterBinder.describe(method);
            for (Annotation annotation : method.getAnnotations()) {
                add(annotation, method, function, origin, registry);
            }
        }
    }

    private static boolean isHandler(Method method) {
        return Arrays.stream(method.getAnnotations()).anyMatch(a -> ANNOTATIONS.contains(a.annotationType()));
    }

    private static void add(Annotation annotation, Method method, HandlerFunction function, String origin,
                            HandlerRegistry registry) {
        switch (annotation) {
            case On.Create a -> registry.add(changing(method, origin, function, a.value(), a.id(), Reason.CREATE, false,
                    false, false, "", a.errors(), a.timeout(), a.retries(), a.backoff()));
            case On.Update a -> registry.add(changing(method, origin, function, a.value(), a.id(), Reason.UPDATE, false,
                    false, false, a.field(), a.errors(), a.timeout(), a.retries(), a.backoff()));
            case On.Delete a -> registry.add(changing(method, origin, function, a.value(), a.id(), Reason.DELETE, false,
                    false, !a.optional(), "", a.errors(), a.timeout(), a.retries(), a.backoff()));
            case On.Resume a -> registry.add(changing(method, origin, function, a.value(), a.id(), null, true,
                    a.deleted(), false, "", a.errors(), a.timeout(), a.retries(), a.backoff()));
            case On.Field a -> {
                if (a.field().isBlank()) {
                    throw new InvalidHandlerException("Handler " + origin + ": @On.Field needs a field, e.g. field = \"spec.size\"");
                }
                registry.add(changing(method, origin, function, a.value(), a.id(), null, false, false, false, a.field(),
                        a.errors(), a.timeout(), a.retries(), a.backoff()));
            }
            case On.Event a -> registry.add(new WatchingHandler(idOf(a.id(), method, ""), selectorOf(origin, a.value()),
                    function, origin));
            default -> {
                // Not a kopf4j annotation.
            }
        }
    }

    private static ChangingHandler changing(Method method, String origin, HandlerFunction function, String[] resource,
                                            String id, Reason reason, boolean initial, boolean deleted,
                                            boolean requiresFinalizer, String field, ErrorsMode errors, double timeout,
                                            int retries, double backoff) {
        List<String> path = field.isBlank() ? null : Dicts.parseField(field.strip());
        return new ChangingHandler(idOf(id, method, field.strip()), reason, initial, deleted, requiresFinalizer, path,
                errors, seconds(timeout), retries < 0 ? null : retries, seconds(backoff), selectorOf(origin, resource),
                function, origin);
    }

    /** Kopf's ids: the method name (or id), plus {@code /field.path} for field handlers. */
    private static String idOf(String declared, Method method, String field) {
        String base = declared.isEmpty() ? method.getName() : declared;
        return field.isEmpty() ? base : base + "/" + field;
    }

    private static Duration seconds(double value) {
        return value < 0 ? null : Duration.ofNanos((long) (value * 1e9));
    }

    private static ResourceSelector selectorOf(String origin, String[] resource) {
        try {
            return ResourceSelector.parse(resource);
        } catch (IllegalArgumentException e) {
            throw new InvalidHandlerException("Handler " + origin + ": " + e.getMessage());
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
