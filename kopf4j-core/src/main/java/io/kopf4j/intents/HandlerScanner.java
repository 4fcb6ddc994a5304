package io.kopf4j.intents;

import io.kopf4j.HandlerFn;
import io.kopf4j.ErrorsMode;
import io.kopf4j.Filter;
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
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Set;

/** Finds the annotated handler methods of a class or an object and adds them to a registry. */
public final class HandlerScanner {
    private static final Set<Class<? extends Annotation>> ANNOTATIONS = Set.of(On.Create.class, On.Update.class,
            On.Delete.class, On.Resume.class, On.Field.class, On.Event.class, On.Probe.class, On.Startup.class,
            On.Cleanup.class, On.Login.class);

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
            String origin = ParameterBinder.describe(method);
            ActivityHandler activity = activityOf(method, instance, origin);
            if (activity != null) {
                registry.add(activity);
                continue;
            }
            HandlerFn function = ParameterBinder.bind(instance, method);
            for (Annotation annotation : method.getAnnotations()) {
                Declaration declaration = declarationOf(annotation, origin);
                if (declaration != null) {
                    add(declaration, annotation instanceof On.Event, method, function, origin, registry);
                }
            }
        }
    }

    /** An activity (probe, startup, cleanup, login) declared by the method, or null. */
    private static ActivityHandler activityOf(Method method, Object instance, String origin) {
        return switch (activityAnnotation(method)) {
            case On.Probe a -> activity(ActivityHandler.PROBE, new ActivityDeclaration(a.id(), a.param(), a.errors(),
                    a.timeout(), a.retries(), a.backoff()), method, instance, origin);
            case On.Startup a -> activity(ActivityHandler.STARTUP, new ActivityDeclaration(a.id(), a.param(), a.errors(),
                    a.timeout(), a.retries(), a.backoff()), method, instance, origin);
            case On.Cleanup a -> activity(ActivityHandler.CLEANUP, new ActivityDeclaration(a.id(), a.param(), a.errors(),
                    a.timeout(), a.retries(), a.backoff()), method, instance, origin);
            case On.Login a -> activity(ActivityHandler.AUTHENTICATION, new ActivityDeclaration(a.id(), a.param(),
                    a.errors(), a.timeout(), a.retries(), a.backoff()), method, instance, origin);
            case null, default -> null;
        };
    }

    private static Annotation activityAnnotation(Method method) {
        for (Class<? extends Annotation> type : List.of(On.Probe.class, On.Startup.class, On.Cleanup.class, On.Login.class)) {
            Annotation annotation = method.getAnnotation(type);
            if (annotation != null) {
                return annotation;
            }
        }
        return null;
    }

    /** What an activity annotation declares, whatever its type. */
    private record ActivityDeclaration(String id, String param, ErrorsMode errors, double timeout, int retries,
                                       double backoff) {
    }

    private static ActivityHandler activity(String kind, ActivityDeclaration d, Method method, Object instance,
                                            String origin) {
        return new ActivityHandler(kind, idOf(d.id(), method, ""), d.errors(), seconds(d.timeout()),
                d.retries() < 0 ? null : d.retries(), seconds(d.backoff()), d.param().isEmpty() ? null : d.param(),
                ActivityHandler.bind(kind, method, instance, origin), origin);
    }

    private static boolean isHandler(Method method) {
        return Arrays.stream(method.getAnnotations()).anyMatch(a -> ANNOTATIONS.contains(a.annotationType()));
    }

    /** What one annotation declares, whatever its type. */
    private record Declaration(String[] resource, String id, String param, Reason reason, boolean initial, boolean deleted,
                               boolean requiresFinalizer, String field, String fieldValue, String oldValue,
                               String newValue, String[] labels, String[] annotations, Class<? extends Filter>[] when,
                               ErrorsMode errors, double timeout, int retries, double backoff) {
    }

    private static Declaration declarationOf(Annotation annotation, String origin) {
        return switch (annotation) {
            case On.Create a -> new Declaration(a.value(), a.id(), a.param(), Reason.CREATE, false, false, false, a.field(),
                    a.fieldValue(), "", "", a.labels(), a.annotations(), a.when(), a.errors(), a.timeout(), a.retries(), a.backoff());
            case On.Update a -> new Declaration(a.value(), a.id(), a.param(), Reason.UPDATE, false, false, false, a.field(),
                    a.fieldValue(), a.oldValue(), a.newValue(), a.labels(), a.annotations(), a.when(), a.errors(),
                    a.timeout(), a.retries(), a.backoff());
            case On.Delete a -> new Declaration(a.value(), a.id(), a.param(), Reason.DELETE, false, false, !a.optional(), a.field(),
                    a.fieldValue(), "", "", a.labels(), a.annotations(), a.when(), a.errors(), a.timeout(), a.retries(), a.backoff());
            case On.Resume a -> new Declaration(a.value(), a.id(), a.param(), null, true, a.deleted(), false, a.field(),
                    a.fieldValue(), "", "", a.labels(), a.annotations(), a.when(), a.errors(), a.timeout(), a.retries(), a.backoff());
            case On.Field a -> {
                if (a.field().isBlank()) {
                    throw new InvalidHandlerException("Handler " + origin + ": @On.Field needs a field, e.g. field = \"spec.size\"");
                }
                yield new Declaration(a.value(), a.id(), a.param(), null, false, false, false, a.field(), a.fieldValue(),
                        a.oldValue(), a.newValue(), a.labels(), a.annotations(), a.when(), a.errors(), a.timeout(),
                        a.retries(), a.backoff());
            }
            case On.Event a -> new Declaration(a.value(), a.id(), a.param(), null, false, false, false, a.field(), a.fieldValue(),
                    "", "", a.labels(), a.annotations(), a.when(), ErrorsMode.IGNORED, -1, -1, -1);
            default -> null;
        };
    }

    private static void add(Declaration d, boolean watching, Method method, HandlerFn function, String origin,
                            HandlerRegistry registry) {
        String field = d.field().strip();
        String id = idOf(d.id(), method, field);
        Filters filters = filtersOf(origin, d, field);
        ResourceSelector selector = selectorOf(origin, d.resource());
        if (watching) {
            registry.add(new WatchingHandler(id, paramOf(d), filters, selector, function, origin));
        } else {
            registry.add(new ChangingHandler(id, d.reason(), d.initial(), d.deleted(), d.requiresFinalizer(),
                    field.isEmpty() ? null : Dicts.parseField(field), d.errors(), seconds(d.timeout()),
                    d.retries() < 0 ? null : d.retries(), seconds(d.backoff()), paramOf(d), filters, selector, function,
                    origin));
        }
    }

    /** Kopf's validation of filter arguments, as startup errors naming the method. */
    private static Filters filtersOf(String origin, Declaration d, String field) {
        boolean value = !d.fieldValue().isEmpty();
        boolean oldOrNew = !d.oldValue().isEmpty() || !d.newValue().isEmpty();
        if ((value || oldOrNew) && field.isEmpty()) {
            throw new InvalidHandlerException("Handler " + origin + ": fieldValue, oldValue and newValue need a field");
        }
        if (value && oldOrNew) {
            throw new InvalidHandlerException("Handler " + origin + ": fieldValue excludes oldValue and newValue;"
                    + " use either the value in any state, or the old and new values");
        }
        List<String> keys = new ArrayList<>(List.of(d.labels()));
        keys.addAll(List.of(d.annotations()));
        for (String entry : keys) {
            if (entry.isBlank() || entry.equals("!") || entry.startsWith("=")) {
                throw new InvalidHandlerException("Handler " + origin + ": invalid label or annotation filter '" + entry
                        + "'; use \"key=value\", \"key\" (present) or \"!key\" (absent)");
            }
        }
        List<Filter> when = new ArrayList<>();
        for (Class<? extends Filter> type : d.when()) {
            when.add((Filter) instantiate(type));
        }
        return new Filters(Filters.parseKeys(d.labels()), Filters.parseKeys(d.annotations()),
                field.isEmpty() ? null : Dicts.parseField(field), value ? Condition.parse(d.fieldValue()) : null,
                d.oldValue().isEmpty() ? null : Condition.parse(d.oldValue()),
                d.newValue().isEmpty() ? null : Condition.parse(d.newValue()), when);
    }

    private static Object paramOf(Declaration d) {
        return d.param().isEmpty() ? null : d.param();
    }

    /** Kopf's ids: the method name (or id), plus {@code /field.path} for handlers with a field. */
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
                throw new InvalidHandlerException("Class " + type.getName() + ": its no-argument constructor is not accessible");
            }
            return constructor.newInstance();
        } catch (NoSuchMethodException e) {
            throw new InvalidHandlerException("Class " + type.getName() + " needs a no-argument constructor (handler"
                    + " instances and filters are made with it); or make the handler methods static, or register an instance");
        } catch (InvocationTargetException e) {
            throw new InvalidHandlerException("Class " + type.getName() + ": its constructor failed: " + e.getCause());
        } catch (ReflectiveOperationException e) {
            throw new InvalidHandlerException("Class " + type.getName() + " cannot be instantiated: " + e);
        }
    }
}
