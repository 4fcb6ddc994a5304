package io.kopf4j.internal.intents;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.kopf4j.Body;
import io.kopf4j.DaemonStopped;
import io.kopf4j.Diff;
import io.kopf4j.HandlerContext;
import io.kopf4j.HandlerFn;
import io.kopf4j.Index;
import io.kopf4j.InvalidHandlerException;
import io.kopf4j.Memo;
import io.kopf4j.Meta;
import io.kopf4j.Patch;
import io.kopf4j.Reason;
import io.kopf4j.Resource;
import io.kopf4j.Spec;
import io.kopf4j.Status;
import io.kopf4j.StatusConditions;
import java.lang.invoke.MethodHandle;
import java.lang.reflect.Method;
import java.lang.reflect.Parameter;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.slf4j.Logger;

/**
 * Binds a handler method's parameters to the handler context, once, at startup: by type where the
 * type says it all ({@link Spec}, {@link Logger}, ...), by name otherwise ({@code String name},
 * {@code Map labels}); the user's own types as {@link TypedParameters} converts them. A parameter that fits nothing fails the startup with a message naming the
 * method and the parameter.
 */
public final class ParameterBinder {
    private static final Map<Class<?>, Function<HandlerContext, Object>> BY_TYPE = new LinkedHashMap<>();
    private static final Map<String, Binding> BY_NAME = new LinkedHashMap<>();

    /** A value reachable by parameter name, and the type it has, checked against the declaration. */
    private record Binding(Class<?> type, Function<HandlerContext, Object> value) {
    }

    static {
        BY_TYPE.put(HandlerContext.class, c -> c);
        BY_TYPE.put(Body.class, HandlerContext::body);
        BY_TYPE.put(Spec.class, HandlerContext::spec);
        BY_TYPE.put(Meta.class, HandlerContext::meta);
        BY_TYPE.put(Status.class, HandlerContext::status);
        BY_TYPE.put(Patch.class, HandlerContext::patch);
        BY_TYPE.put(StatusConditions.class, context -> StatusConditions.of(context.body(), context.patch()));
        BY_TYPE.put(Diff.class, HandlerContext::diff);
        BY_TYPE.put(Resource.class, HandlerContext::resource);
        BY_TYPE.put(Reason.class, HandlerContext::reason);
        BY_TYPE.put(Logger.class, HandlerContext::logger);
        BY_TYPE.put(Memo.class, HandlerContext::memo);
        BY_TYPE.put(KubernetesClient.class, HandlerContext::client);
        BY_TYPE.put(DaemonStopped.class, HandlerContext::stopped);

        byName("body", Body.class, HandlerContext::body);
        byName("spec", Spec.class, HandlerContext::spec);
        byName("meta", Meta.class, HandlerContext::meta);
        byName("metadata", Meta.class, HandlerContext::meta);
        byName("status", Status.class, HandlerContext::status);
        byName("name", String.class, HandlerContext::name);
        byName("namespace", String.class, HandlerContext::namespace);
        byName("uid", String.class, HandlerContext::uid);
        byName("labels", Map.class, HandlerContext::labels);
        byName("annotations", Map.class, HandlerContext::annotations);
        byName("patch", Patch.class, HandlerContext::patch);
        byName("logger", Logger.class, HandlerContext::logger);
        byName("reason", Reason.class, HandlerContext::reason);
        byName("resource", Resource.class, HandlerContext::resource);
        byName("diff", Diff.class, HandlerContext::diff);
        byName("old", Object.class, HandlerContext::old);
        byName("current", Object.class, HandlerContext::current);
        byName("memo", Memo.class, HandlerContext::memo);
        byName("param", Object.class, HandlerContext::param);
        byName("retry", Integer.class, HandlerContext::retry);
        byName("started", Instant.class, HandlerContext::started);
        byName("runtime", Duration.class, HandlerContext::runtime);
        byName("type", String.class, HandlerContext::type);
        byName("event", Map.class, HandlerContext::event);
        byName("stopped", DaemonStopped.class, HandlerContext::stopped);
        byName("dryrun", Boolean.class, HandlerContext::dryrun);
        byName("warnings", List.class, HandlerContext::warnings);
        byName("userinfo", Map.class, HandlerContext::userinfo);
        byName("headers", Map.class, HandlerContext::headers);
        byName("sslpeer", Map.class, HandlerContext::sslpeer);
        byName("operation", String.class, HandlerContext::operation);
        byName("subresource", String.class, HandlerContext::subresource);
    }

    private ParameterBinder() {
    }

    private static void byName(String name, Class<?> type, Function<HandlerContext, Object> value) {
        BY_NAME.put(name, new Binding(type, value));
    }

    /** The method as a {@link HandlerFn} on {@code target} (ignored for static methods). */
    public static HandlerFn bind(Object target, Method method) {
        String origin = describe(method);
        Parameter[] parameters = method.getParameters();
        @SuppressWarnings("unchecked")
        Function<HandlerContext, Object>[] binders = new Function[parameters.length];
        for (int i = 0; i < parameters.length; i++) {
            binders[i] = binderFor(origin, parameters[i]);
        }
        if (!method.trySetAccessible()) {
            throw new InvalidHandlerException("Handler " + origin + " is not accessible to kopf4j: make it public");
        }
        boolean patches = java.util.Arrays.stream(parameters).anyMatch(parameter -> parameter.getType() == io.kopf4j.Patch.class
                || parameter.getType() == StatusConditions.class
                || io.kopf4j.HandlerContext.class.isAssignableFrom(parameter.getType()));
        return new BoundMethod(binders, Invocations.spread(method, target), resultless(method) && !patches);
    }

    /** {@code void}, {@code Void}, or a {@code CompletionStage<Void>}: a method that never has a result. */
    private static boolean resultless(Method method) {
        Class<?> type = method.getReturnType();
        if (type == void.class || type == Void.class) {
            return true;
        }
        return java.util.concurrent.CompletionStage.class.isAssignableFrom(type)
                && method.getGenericReturnType() instanceof java.lang.reflect.ParameterizedType generic
                && generic.getActualTypeArguments().length == 1 && generic.getActualTypeArguments()[0] == Void.class;
    }

    /**
     * Whether the handler may write into the object's status: it returns a result for
     * {@code status.<id>} (it is no {@code void} method, nor one returning {@code Void} or a
     * {@code CompletionStage<Void>}), or it takes the {@code Patch} (or the context that holds it);
     * a function of the builders may do anything. The RBAC for the status follows it.
     */
    public static boolean mayWriteStatus(HandlerFn function) {
        return !(function instanceof BoundMethod bound) || !bound.statusless;
    }

    /**
     * A handler method with its parameters' binders. A class, not a lambda around
     * {@link Invocations#invoke}: each of those frames would stay on the stack of every parked daemon.
     */
    private static final class BoundMethod implements HandlerFn {
        private final Function<HandlerContext, Object>[] binders;
        private final MethodHandle handle;
        /** A method with no result and no patch: it never writes into the status. */
        private final boolean statusless;

        BoundMethod(Function<HandlerContext, Object>[] binders, MethodHandle handle, boolean statusless) {
            this.binders = binders;
            this.handle = handle;
            this.statusless = statusless;
        }

        @Override
        public Object call(HandlerContext context) throws Exception {
            Object[] arguments = new Object[binders.length];
            for (int i = 0; i < binders.length; i++) {
                arguments[i] = binders[i].apply(context);
            }
            try {
                return (Object) handle.invokeExact(arguments);
            } catch (Throwable thrown) {
                throw Invocations.asThrown(thrown);
            }
        }
    }

    private static Class<?> boxed(Class<?> type) {
        if (type == boolean.class) {
            return Boolean.class;
        }
        return type == int.class ? Integer.class : type;
    }

    /** {@code Example.create(Spec, String, Logger)}: how messages name a handler method. */
    public static String describe(Method method) {
        StringBuilder text = new StringBuilder(method.getDeclaringClass().getSimpleName())
                .append('.').append(method.getName()).append('(');
        Class<?>[] types = method.getParameterTypes();
        for (int i = 0; i < types.length; i++) {
            text.append(i == 0 ? "" : ", ").append(types[i].getSimpleName());
        }
        return text.append(')').toString();
    }

    /**
     * An {@link Index} parameter is the index of its name (Kopf's kwargs by index id). The index may be
     * declared after the handler, so the name is looked up at the call; an unknown one fails the call.
     */
    private static Function<HandlerContext, Object> indexNamedBy(String origin, Parameter parameter) {
        if (!parameter.isNamePresent()) {
            throw new InvalidHandlerException("Handler " + origin + ": an Index parameter is the index of its name,"
                    + " but the class was compiled without parameter names: compile it with 'javac -parameters'");
        }
        String id = parameter.getName();
        return context -> context.index(id);
    }

    private static Function<HandlerContext, Object> binderFor(String origin, Parameter parameter) {
        Function<HandlerContext, Object> byType = BY_TYPE.get(parameter.getType());
        if (byType != null) {
            return byType;
        }
        if (parameter.getType() == Index.class) {
            return indexNamedBy(origin, parameter);
        }
        Function<HandlerContext, Object> typed = TypedParameters.binderFor(origin, parameter);
        if (typed != null) {
            return typed;
        }
        if (!parameter.isNamePresent()) {
            throw new InvalidHandlerException("Handler " + origin + ": parameter " + parameter.getName() + " of type "
                    + parameter.getType().getSimpleName() + " can only be bound by its name, but the class was compiled "
                    + "without parameter names: compile it with 'javac -parameters'");
        }
        Binding byName = BY_NAME.get(parameter.getName());
        if (byName == null) {
            throw new InvalidHandlerException("Handler " + origin + ": unsupported parameter '" + parameter.getName()
                    + "' of type " + parameter.getType().getSimpleName() + "; supported names: "
                    + String.join(", ", BY_NAME.keySet()) + "; supported types: Body, Spec, Meta, Status, Patch, StatusConditions, Diff, "
                    + "Resource, Reason, Logger, Memo, HandlerContext, fabric8 resources (Pod, ...); a record or POJO "
                    + "named spec, status or body");
        }
        Class<?> declared = boxed(parameter.getType());
        if (!declared.isAssignableFrom(byName.type()) && !byName.type().isAssignableFrom(declared)) {
            throw new InvalidHandlerException("Handler " + origin + ": parameter '" + parameter.getName()
                    + "' is declared as " + parameter.getType().getSimpleName() + " but kopf4j passes a "
                    + byName.type().getSimpleName() + "; declare it as " + byName.type().getSimpleName());
        }
        return context -> {
            Object value = byName.value().apply(context);
            if (value != null && !declared.isInstance(value)) {
                throw new IllegalArgumentException("Handler " + origin + ": parameter '" + parameter.getName()
                        + "' is declared as " + parameter.getType().getSimpleName() + " but the value is a "
                        + value.getClass().getSimpleName());
            }
            return value;
        };
    }
}
