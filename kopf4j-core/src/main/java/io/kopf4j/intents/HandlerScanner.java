package io.kopf4j.intents;

import io.kopf4j.Daemon;
import io.kopf4j.DaemonStopped;
import io.kopf4j.ErrorsMode;
import io.kopf4j.Filter;
import io.kopf4j.HandlerFn;
import io.kopf4j.HandlerKind;
import io.kopf4j.Indexer;
import io.kopf4j.InvalidHandlerException;
import io.kopf4j.On;
import io.kopf4j.Timer;
import java.lang.annotation.Annotation;
import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.time.Duration;
import java.util.Arrays;
import java.util.Comparator;
import java.util.Set;

/** Finds the annotated handler methods of a class or an object and adds them to a registry. */
public final class HandlerScanner {
    private static final Set<Class<? extends Annotation>> ANNOTATIONS = Set.of(On.Create.class, On.Update.class,
            On.Delete.class, On.Resume.class, On.Field.class, On.Event.class, On.Probe.class, On.Startup.class,
            On.Cleanup.class, On.Login.class, On.Validate.class, On.Mutate.class, Daemon.class, Timer.class,
            Indexer.class);

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
        DeclaredPermission.of(type).forEach(registry::add);
        for (Method method : methods) {
            if (!isHandler(method)) {
                continue;
            }
            if (instance == null && !Modifier.isStatic(method.getModifiers())) {
                instance = instantiate(type);
            }
            add(method, instance, registry);
        }
    }

    /** Adds one handler per annotation of the method; the method is bound once, as its kind needs. */
    private static void add(Method method, Object instance, HandlerRegistry registry) {
        String origin = ParameterBinder.describe(method);
        HandlerFn function = null;
        for (Annotation annotation : method.getAnnotations()) {
            HandlerSpec spec = specOf(annotation, method);
            if (spec == null) {
                continue;
            }
            requireSpawningForStopFlag(spec.kind(), method, origin);
            String activity = spec.activity();
            if (activity != null) {
                registry.add(spec.activity(ActivityHandler.bind(activity, method, instance, origin)));
            } else {
                function = function == null ? ParameterBinder.bind(instance, method) : function;
                spec.register(function, registry);
            }
        }
    }

    /** Only daemons and timers have a stop flag: asking for it elsewhere is a declaration error, found at startup. */
    private static void requireSpawningForStopFlag(HandlerKind kind, Method method, String origin) {
        boolean asksForFlag = Arrays.stream(method.getParameterTypes()).anyMatch(DaemonStopped.class::equals);
        if (asksForFlag && kind != HandlerKind.DAEMON && kind != HandlerKind.TIMER) {
            throw new InvalidHandlerException("Handler " + origin + ": only daemons and timers get a DaemonStopped"
                    + " parameter (their stop flag); remove it, or declare the method with @Daemon or @Timer");
        }
    }

    private static boolean isHandler(Method method) {
        return Arrays.stream(method.getAnnotations()).anyMatch(a -> ANNOTATIONS.contains(a.annotationType()));
    }

    /**
     * The options all annotations have, as written: empty texts and negative numbers mean "not given".
     *
     * @param timeout seconds
     * @param backoff seconds
     */
    private record Execution(String id, String param, ErrorsMode errors, double timeout, int retries, double backoff) {
    }

    /** The filters of the annotations of object handlers, as written: empty texts mean "not given". */
    private record Selection(String[] labels, String[] annotations, Class<? extends Filter>[] when, String field,
                             String fieldValue, String oldValue, String newValue) {
    }

    /** The annotation translated into a handler specification, or null if it declares no handler. */
    private static HandlerSpec specOf(Annotation annotation, Method method) {
        return switch (annotation) {
            case On.Create a -> spec(HandlerKind.CREATE, method, a.value(),
                    new Execution(a.id(), a.param(), a.errors(), a.timeout(), a.retries(), a.backoff()),
                    new Selection(a.labels(), a.annotations(), a.when(), a.field(), a.fieldValue(), "", ""));
            case On.Update a -> spec(HandlerKind.UPDATE, method, a.value(),
                    new Execution(a.id(), a.param(), a.errors(), a.timeout(), a.retries(), a.backoff()),
                    new Selection(a.labels(), a.annotations(), a.when(), a.field(), a.fieldValue(), a.oldValue(),
                            a.newValue()));
            case On.Delete a -> spec(HandlerKind.DELETE, method, a.value(),
                    new Execution(a.id(), a.param(), a.errors(), a.timeout(), a.retries(), a.backoff()),
                    new Selection(a.labels(), a.annotations(), a.when(), a.field(), a.fieldValue(), "", ""))
                    .optional(a.optional());
            case On.Resume a -> spec(HandlerKind.RESUME, method, a.value(),
                    new Execution(a.id(), a.param(), a.errors(), a.timeout(), a.retries(), a.backoff()),
                    new Selection(a.labels(), a.annotations(), a.when(), a.field(), a.fieldValue(), "", ""))
                    .deleted(a.deleted());
            case On.Field a -> spec(HandlerKind.FIELD, method, a.value(),
                    new Execution(a.id(), a.param(), a.errors(), a.timeout(), a.retries(), a.backoff()),
                    new Selection(a.labels(), a.annotations(), a.when(), a.field(), a.fieldValue(), a.oldValue(),
                            a.newValue()));
            case On.Event a -> spec(HandlerKind.EVENT, method, a.value(), new Execution(a.id(), a.param(), null, -1, -1, -1),
                    new Selection(a.labels(), a.annotations(), a.when(), a.field(), a.fieldValue(), "", ""));
            case On.Probe a -> spec(HandlerKind.PROBE, method, new String[0],
                    new Execution(a.id(), a.param(), a.errors(), a.timeout(), a.retries(), a.backoff()), null);
            case On.Startup a -> spec(HandlerKind.STARTUP, method, new String[0],
                    new Execution(a.id(), a.param(), a.errors(), a.timeout(), a.retries(), a.backoff()), null);
            case On.Cleanup a -> spec(HandlerKind.CLEANUP, method, new String[0],
                    new Execution(a.id(), a.param(), a.errors(), a.timeout(), a.retries(), a.backoff()), null);
            case On.Login a -> spec(HandlerKind.LOGIN, method, new String[0],
                    new Execution(a.id(), a.param(), a.errors(), a.timeout(), a.retries(), a.backoff()), null);
            case On.Validate a -> admission(spec(HandlerKind.VALIDATE, method, a.value(),
                    new Execution(a.id(), a.param(), null, -1, -1, -1),
                    new Selection(a.labels(), a.annotations(), a.when(), a.field(), a.fieldValue(), "", "")),
                    new Admission(a.operations(), a.subresource(), a.persistent(), a.sideEffects(), a.ignoreFailures()));
            case On.Mutate a -> admission(spec(HandlerKind.MUTATE, method, a.value(),
                    new Execution(a.id(), a.param(), null, -1, -1, -1),
                    new Selection(a.labels(), a.annotations(), a.when(), a.field(), a.fieldValue(), "", "")),
                    new Admission(a.operations(), a.subresource(), a.persistent(), a.sideEffects(), a.ignoreFailures()));
            case Daemon a -> daemon(a, spec(HandlerKind.DAEMON, method, a.value(),
                    new Execution(a.id(), a.param(), a.errors(), a.timeout(), a.retries(), a.backoff()),
                    new Selection(a.labels(), a.annotations(), a.when(), a.field(), a.fieldValue(), "", "")));
            case Timer a -> timer(a, spec(HandlerKind.TIMER, method, a.value(),
                    new Execution(a.id(), a.param(), a.errors(), a.timeout(), a.retries(), a.backoff()),
                    new Selection(a.labels(), a.annotations(), a.when(), a.field(), a.fieldValue(), "", "")));
            case Indexer a -> spec(HandlerKind.INDEX, method, a.value(),
                    new Execution(a.id(), a.param(), a.errors(), -1, -1, a.backoff()),
                    new Selection(a.labels(), a.annotations(), a.when(), a.field(), a.fieldValue(), "", ""));
            default -> null;
        };
    }

    /** The options of {@code @On.Validate} and {@code @On.Mutate}, as written: empty means "not given". */
    private record Admission(String[] operations, String subresource, boolean persistent, boolean sideEffects,
                             boolean ignoreFailures) {
    }

    private static HandlerSpec admission(HandlerSpec spec, Admission options) {
        if (options.operations().length > 0) {
            spec.operations(Arrays.asList(options.operations()));
        }
        return spec.subresource(options.subresource()).persistent(options.persistent())
                .sideEffects(options.sideEffects()).ignoreFailures(options.ignoreFailures());
    }

    /** The daemon's own options, in seconds; negative means "not given". */
    private static HandlerSpec daemon(Daemon annotation, HandlerSpec spec) {
        if (annotation.initialDelay() >= 0) {
            spec.initialDelay(seconds(annotation.initialDelay()));
        }
        if (annotation.cancellationBackoff() >= 0) {
            spec.cancellationBackoff(seconds(annotation.cancellationBackoff()));
        }
        if (annotation.cancellationTimeout() >= 0) {
            spec.cancellationTimeout(seconds(annotation.cancellationTimeout()));
        }
        if (annotation.cancellationPolling() >= 0) {
            spec.cancellationPolling(seconds(annotation.cancellationPolling()));
        }
        return spec;
    }

    /** The timer's own options, in seconds; negative means "not given". */
    private static HandlerSpec timer(Timer annotation, HandlerSpec spec) {
        if (annotation.initialDelay() >= 0) {
            spec.initialDelay(seconds(annotation.initialDelay()));
        }
        if (annotation.interval() >= 0) {
            spec.interval(seconds(annotation.interval()));
        }
        if (annotation.idle() >= 0) {
            spec.idle(seconds(annotation.idle()));
        }
        return spec.sharp(annotation.sharp());
    }

    /** Fills the specification: the annotation's texts and seconds become the specification's options. */
    private static HandlerSpec spec(HandlerKind kind, Method method, String[] resource, Execution execution,
                                    Selection selection) {
        HandlerSpec spec = HandlerSpec.annotated(kind, method, resource);
        if (!execution.id().isEmpty()) {
            spec.id(execution.id());
        }
        if (!execution.param().isEmpty()) {
            spec.param(execution.param());
        }
        if (execution.errors() != null) {
            spec.errors(execution.errors());
        }
        if (execution.timeout() >= 0) {
            spec.timeout(seconds(execution.timeout()));
        }
        if (execution.retries() >= 0) {
            spec.retries(execution.retries());
        }
        if (execution.backoff() >= 0) {
            spec.backoff(seconds(execution.backoff()));
        }
        if (selection != null) {
            select(spec, selection);
        }
        return spec;
    }

    private static void select(HandlerSpec spec, Selection selection) {
        spec.field(selection.field());
        if (!selection.fieldValue().isEmpty()) {
            spec.value(HandlerSpec.parseCondition(selection.fieldValue()));
        }
        if (!selection.oldValue().isEmpty()) {
            spec.old(HandlerSpec.parseCondition(selection.oldValue()));
        }
        if (!selection.newValue().isEmpty()) {
            spec.current(HandlerSpec.parseCondition(selection.newValue()));
        }
        for (String entry : selection.labels()) {
            spec.label(entry);
        }
        for (String entry : selection.annotations()) {
            spec.annotation(entry);
        }
        for (Class<? extends Filter> type : selection.when()) {
            spec.when((Filter) instantiate(type));
        }
    }

    private static Duration seconds(double value) {
        return Duration.ofNanos((long) (value * 1e9));
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
