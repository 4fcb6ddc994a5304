package io.kopf4j.internal.intents;

import io.kopf4j.Children;
import io.kopf4j.Condition;
import io.kopf4j.Daemon;
import io.kopf4j.DaemonStopped;
import io.kopf4j.DelayFn;
import io.kopf4j.ErrorsMode;
import io.kopf4j.Filter;
import io.kopf4j.HandlerDescription;
import io.kopf4j.HandlerDescription.Option;
import io.kopf4j.HandlerFn;
import io.kopf4j.HandlerKind;
import io.kopf4j.Indexer;
import io.kopf4j.InvalidHandlerException;
import io.kopf4j.On;
import io.kopf4j.ResourceMatcher;
import io.kopf4j.Timer;
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
import java.util.Map;
import java.util.Set;

/** Finds the annotated handler methods of a class or an object and adds them to a registry. */
public final class HandlerScanner {
    private static final Set<Class<? extends Annotation>> ANNOTATIONS = Set.of(On.Create.class, On.Update.class,
            On.Delete.class, On.Resume.class, On.Field.class, On.Event.class, On.Probe.class, On.Startup.class,
            On.Cleanup.class, On.Login.class, On.Validate.class, On.Mutate.class, Daemon.class, Timer.class, Children.class,
            Indexer.class, On.Convert.class);

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
            if (method.isAnnotationPresent(On.Convert.class)) {
                registry.add(ConversionHandler.bind(method, instance));
            }
            add(method, instance, registry);
        }
    }

    /** Adds one handler per annotation of the method; the method is bound once, as its kind needs. */
    private static void add(Method method, Object instance, HandlerRegistry registry) {
        String origin = ParameterBinder.describe(method);
        HandlerFn function = null;
        for (Annotation annotation : method.getAnnotations()) {
            HandlerDescription description = describe(annotation);
            if (description == null) {
                continue;
            }
            HandlerSpec spec = HandlerSpec.annotated(description, method);
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
                             String fieldValue, String oldValue, String newValue,
                             Class<? extends ResourceMatcher> selector) {
    }

    /** The annotation translated into what it declares, or null if it declares no handler. */
    static HandlerDescription describe(Annotation annotation) {
        return switch (annotation) {
            case On.Create a -> described(HandlerKind.CREATE, a.value(),
                    new Execution(a.id(), a.param(), a.errors(), a.timeout(), a.retries(), a.backoff()),
                    new Selection(a.labels(), a.annotations(), a.when(), a.field(), a.fieldValue(), "", "", a.selector()));
            case On.Update a -> described(HandlerKind.UPDATE, a.value(),
                    new Execution(a.id(), a.param(), a.errors(), a.timeout(), a.retries(), a.backoff()),
                    new Selection(a.labels(), a.annotations(), a.when(), a.field(), a.fieldValue(), a.oldValue(),
                            a.newValue(), a.selector()));
            case On.Delete a -> described(HandlerKind.DELETE, a.value(),
                    new Execution(a.id(), a.param(), a.errors(), a.timeout(), a.retries(), a.backoff()),
                    new Selection(a.labels(), a.annotations(), a.when(), a.field(), a.fieldValue(), "", "", a.selector()),
                    a.optional() ? List.of(new Option.NotBlocking()) : List.of());
            case On.Resume a -> described(HandlerKind.RESUME, a.value(),
                    new Execution(a.id(), a.param(), a.errors(), a.timeout(), a.retries(), a.backoff()),
                    new Selection(a.labels(), a.annotations(), a.when(), a.field(), a.fieldValue(), "", "", a.selector()),
                    a.deleted() ? List.of(new Option.AlsoDeleted()) : List.of());
            case On.Field a -> described(HandlerKind.FIELD, a.value(),
                    new Execution(a.id(), a.param(), a.errors(), a.timeout(), a.retries(), a.backoff()),
                    new Selection(a.labels(), a.annotations(), a.when(), a.field(), a.fieldValue(), a.oldValue(),
                            a.newValue(), a.selector()));
            case On.Event a -> described(HandlerKind.EVENT, a.value(), new Execution(a.id(), a.param(), null, -1, -1, -1),
                    new Selection(a.labels(), a.annotations(), a.when(), a.field(), a.fieldValue(), "", "", a.selector()));
            case On.Probe a -> described(HandlerKind.PROBE, new String[0],
                    new Execution(a.id(), a.param(), a.errors(), a.timeout(), a.retries(), a.backoff()), null);
            case On.Startup a -> described(HandlerKind.STARTUP, new String[0],
                    new Execution(a.id(), a.param(), a.errors(), a.timeout(), a.retries(), a.backoff()), null);
            case On.Cleanup a -> described(HandlerKind.CLEANUP, new String[0],
                    new Execution(a.id(), a.param(), a.errors(), a.timeout(), a.retries(), a.backoff()), null);
            case On.Login a -> described(HandlerKind.LOGIN, new String[0],
                    new Execution(a.id(), a.param(), a.errors(), a.timeout(), a.retries(), a.backoff()), null);
            case On.Validate a -> described(HandlerKind.VALIDATE, a.value(), new Execution(a.id(), a.param(), null, -1, -1, -1),
                    new Selection(a.labels(), a.annotations(), a.when(), a.field(), a.fieldValue(), "", "", a.selector()),
                    admission(a.operations(), a.subresource(), a.persistent(), a.sideEffects(), a.ignoreFailures()));
            case On.Mutate a -> described(HandlerKind.MUTATE, a.value(), new Execution(a.id(), a.param(), null, -1, -1, -1),
                    new Selection(a.labels(), a.annotations(), a.when(), a.field(), a.fieldValue(), "", "", a.selector()),
                    admission(a.operations(), a.subresource(), a.persistent(), a.sideEffects(), a.ignoreFailures()));
            case Daemon a -> described(HandlerKind.DAEMON, a.value(),
                    new Execution(a.id(), a.param(), a.errors(), a.timeout(), a.retries(), a.backoff()),
                    new Selection(a.labels(), a.annotations(), a.when(), a.field(), a.fieldValue(), "", "", a.selector()), daemon(a));
            case Timer a -> described(HandlerKind.TIMER, a.value(),
                    new Execution(a.id(), a.param(), a.errors(), a.timeout(), a.retries(), a.backoff()),
                    new Selection(a.labels(), a.annotations(), a.when(), a.field(), a.fieldValue(), "", "", a.selector()), timer(a));
            case Children a -> described(HandlerKind.CHILDREN, a.value(),
                    new Execution(a.id(), a.param(), a.errors(), a.timeout(), a.retries(), a.backoff()),
                    new Selection(a.labels(), a.annotations(), a.when(), "", "", "", "", ResourceMatcher.class), children(a));
            case Indexer a -> described(HandlerKind.INDEX, a.value(),
                    new Execution(a.id(), a.param(), a.errors(), -1, -1, a.backoff()),
                    new Selection(a.labels(), a.annotations(), a.when(), a.field(), a.fieldValue(), "", "", a.selector()));
            default -> null;
        };
    }

    /** The options of {@code @On.Validate} and {@code @On.Mutate}; an empty text or false: not given. */
    private static List<Option> admission(String[] operations, String subresource, boolean persistent,
                                          boolean sideEffects, boolean ignoreFailures) {
        List<Option> options = new ArrayList<>();
        if (operations.length > 0) {
            options.add(new Option.Operations(Arrays.asList(operations)));
        }
        if (!subresource.isBlank()) {
            options.add(new Option.Subresource(subresource));
        }
        addIf(persistent, new Option.Persistent(), options);
        addIf(sideEffects, new Option.SideEffects(), options);
        addIf(ignoreFailures, new Option.IgnoreFailures(), options);
        return options;
    }

    /** The daemon's own options, in seconds; negative means "not given". */
    private static List<Option> daemon(Daemon annotation) {
        List<Option> options = new ArrayList<>();
        addIf(annotation.initialDelay() >= 0, new Option.InitialDelay(seconds(annotation.initialDelay())), options);
        computedDelay(annotation.initialDelayFn(), options);
        addIf(annotation.cancellationBackoff() >= 0,
                new Option.CancellationBackoff(seconds(annotation.cancellationBackoff())), options);
        addIf(annotation.cancellationTimeout() >= 0,
                new Option.CancellationTimeout(seconds(annotation.cancellationTimeout())), options);
        addIf(annotation.cancellationPolling() >= 0,
                new Option.CancellationPolling(seconds(annotation.cancellationPolling())), options);
        return options;
    }

    /**
     * {@code initialDelayFn}: an instance made with its no-argument constructor, as {@code when}'s
     * filters are; {@code DelayFn.class} itself (the default) means "not given".
     */
    private static void computedDelay(Class<? extends DelayFn> type, List<Option> options) {
        if (type != DelayFn.class) {
            options.add(new Option.ComputedInitialDelay((DelayFn) instantiate(type)));
        }
    }

    /** The children handler's own options; empty means "not given". */
    private static List<Option> children(Children annotation) {
        List<Option> options = new ArrayList<>();
        addIf(annotation.kinds().length > 0, new Option.ChildKinds(Arrays.asList(annotation.kinds())), options);
        addIf(annotation.resources().length > 0, new Option.ChildResources(Arrays.asList(annotation.resources())), options);
        addIf(!annotation.readyCondition().isEmpty(), new Option.ReadyCondition(annotation.readyCondition()), options);
        return options;
    }

    /** The timer's own options, in seconds; negative means "not given". */
    private static List<Option> timer(Timer annotation) {
        List<Option> options = new ArrayList<>();
        addIf(annotation.initialDelay() >= 0, new Option.InitialDelay(seconds(annotation.initialDelay())), options);
        computedDelay(annotation.initialDelayFn(), options);
        addIf(annotation.interval() >= 0, new Option.Interval(seconds(annotation.interval())), options);
        addIf(annotation.idle() >= 0, new Option.Idle(seconds(annotation.idle())), options);
        addIf(annotation.sharp(), new Option.Sharp(), options);
        return options;
    }

    private static HandlerDescription described(HandlerKind kind, String[] resource, Execution execution,
                                                Selection selection) {
        return described(kind, resource, execution, selection, List.of());
    }

    /**
     * The description a builder would make of the same handler: the annotation's texts and seconds
     * become options in the builders' order (the execution's, the selection's, the kind's own).
     */
    private static HandlerDescription described(HandlerKind kind, String[] resource, Execution execution,
                                                Selection selection, List<Option> own) {
        List<Option> options = new ArrayList<>();
        addIf(!execution.id().isEmpty(), new Option.Id(execution.id()), options);
        addIf(!execution.param().isEmpty(), new Option.Param(execution.param()), options);
        if (execution.errors() != null) {
            options.add(new Option.Errors(execution.errors()));
        }
        addIf(execution.timeout() >= 0, new Option.Timeout(seconds(execution.timeout())), options);
        addIf(execution.retries() >= 0, new Option.Retries(execution.retries()), options);
        addIf(execution.backoff() >= 0, new Option.Backoff(seconds(execution.backoff())), options);
        if (selection != null) {
            options.addAll(selected(selection));
        }
        options.addAll(own);
        return new HandlerDescription(kind, Arrays.asList(resource), options);
    }

    private static List<Option> selected(Selection selection) {
        List<Option> options = new ArrayList<>();
        addIf(!selection.field().isBlank(), new Option.Field(selection.field()), options);
        if (!selection.fieldValue().isEmpty()) {
            options.add(new Option.Value(HandlerSpec.parseCondition(selection.fieldValue())));
        }
        if (!selection.oldValue().isEmpty()) {
            options.add(new Option.Old(HandlerSpec.parseCondition(selection.oldValue())));
        }
        if (!selection.newValue().isEmpty()) {
            options.add(new Option.Current(HandlerSpec.parseCondition(selection.newValue())));
        }
        for (String entry : selection.labels()) {
            Map.Entry<String, Condition> label = HandlerSpec.parseKey(entry);
            options.add(new Option.Label(label.getKey(), label.getValue()));
        }
        for (String entry : selection.annotations()) {
            Map.Entry<String, Condition> annotation = HandlerSpec.parseKey(entry);
            options.add(new Option.Annotation(annotation.getKey(), annotation.getValue()));
        }
        for (Class<? extends Filter> type : selection.when()) {
            options.add(new Option.When((Filter) instantiate(type)));
        }
        if (selection.selector() != ResourceMatcher.class) {
            options.add(new Option.Selector((ResourceMatcher) instantiate(selection.selector())));
        }
        return options;
    }

    private static void addIf(boolean given, Option option, List<Option> options) {
        if (given) {
            options.add(option);
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
                    + " instances, filters and delay functions are made with it); or make the handler methods static,"
                    + " or register an instance");
        } catch (InvocationTargetException e) {
            throw new InvalidHandlerException("Class " + type.getName() + ": its constructor failed: " + e.getCause());
        } catch (ReflectiveOperationException e) {
            throw new InvalidHandlerException("Class " + type.getName() + " cannot be instantiated: " + e);
        }
    }
}
