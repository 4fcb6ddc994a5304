package io.kopf4j.internal.intents;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.kopf4j.ActivityContext;
import io.kopf4j.ActivityFn;
import io.kopf4j.ErrorsMode;
import io.kopf4j.Index;
import io.kopf4j.InvalidHandlerException;
import io.kopf4j.Memo;
import io.kopf4j.OperatorSettings;
import java.lang.invoke.MethodHandle;
import java.lang.reflect.Method;
import java.lang.reflect.Parameter;
import java.time.Duration;
import org.slf4j.Logger;

/**
 * An operator-level handler, Kopf's activities: startup, cleanup, authentication (login) and probe.
 * They run with the same rules as all handlers (see {@link io.kopf4j.internal.actions.Execution}).
 *
 * @param kind one of {@link #STARTUP}, {@link #CLEANUP}, {@link #AUTHENTICATION}, {@link #PROBE} (Kopf's
 *             activity names, also in the logger's name {@code kopf.activities.<kind>})
 * @param id the handler id (for probes: the key of the result)
 * @param errors what arbitrary exceptions mean, or null for the default (retry)
 * @param timeout give up after this long, or null
 * @param retries give up after this many attempts, or null
 * @param backoff the delay after an arbitrary exception, or null for the default
 * @param param the value passed as the handler's {@code param}, or null
 * @param function what it does
 * @param origin where it was declared, for messages
 */
public record ActivityHandler(String kind, String id, ErrorsMode errors, Duration timeout, Integer retries,
                              Duration backoff, Object param, ActivityFn function, String origin)
        implements ExecutableHandler {
    public static final String STARTUP = "startup";
    public static final String CLEANUP = "cleanup";
    /** Kopf's name of the login activity, also in its logger's name. */
    public static final String AUTHENTICATION = "authentication";
    public static final String PROBE = "probe";

    /** Kopf's name of an activity handler in log lines: {@code Activity 'id'}. */
    @Override
    public String title() {
        return "Activity '" + id + "'";
    }

    @Override
    public String toString() {
        return title();
    }

    /**
     * Why a handler has no client: it runs before the operator has logged in, as Kopf's startup and
     * login handlers always do (and a probe may, while the operator starts).
     *
     * @param handler how to name the handler: its id or its method
     */
    public static String withoutClient(String kind, String handler) {
        return "The " + kind + " handler " + handler + " asks for the Kubernetes client before the operator has"
                + " logged in; startup and login handlers always run before it (as in Kopf): use the client in"
                + " cleanup, probe and resource handlers";
    }

    /**
     * An annotated method as an activity function; its parameters are checked now, at startup.
     * It may declare {@link ActivityContext}, {@link OperatorSettings}, {@link Memo}, {@link Logger},
     * {@code int retry}, a parameter named {@code param} (its {@code param} option), and, for
     * cleanup and probe handlers, {@link KubernetesClient}.
     */
    public static ActivityFn bind(String kind, Method method, Object target, String origin) {
        for (Parameter parameter : method.getParameters()) {
            Class<?> type = parameter.getType();
            if (type == KubernetesClient.class && (kind.equals(STARTUP) || kind.equals(AUTHENTICATION))) {
                throw new InvalidHandlerException(withoutClient(kind, origin));
            }
            if (type != ActivityContext.class && type != Memo.class && type != Logger.class
                    && type != OperatorSettings.class && type != int.class && type != KubernetesClient.class
                    && type != Index.class && !isParam(parameter)) {
                throw new InvalidHandlerException("Handler " + origin + ": unsupported parameter '" + parameter.getName()
                        + "' of type " + type.getSimpleName() + "; " + kind + " handlers may declare ActivityContext,"
                        + " OperatorSettings, Memo, Logger, int retry, Object param, (cleanup and probe handlers)"
                        + " KubernetesClient and (probe handlers) an Index named like it");
            }
        }
        if (!method.trySetAccessible()) {
            throw new InvalidHandlerException("Handler " + origin + " is not accessible to kopf4j: make it public");
        }
        MethodHandle handle = Invocations.spread(method, target);
        Parameter[] parameters = method.getParameters();
        return context -> {
            Object[] arguments = new Object[parameters.length];
            for (int i = 0; i < parameters.length; i++) {
                Class<?> type = parameters[i].getType();
                arguments[i] = type == ActivityContext.class ? context
                        : type == Memo.class ? context.memo()
                        : type == Logger.class ? context.logger()
                        : type == OperatorSettings.class ? context.settings()
                        : type == int.class ? Integer.valueOf(context.retry())
                        : type == KubernetesClient.class ? context.client()
                        : type == Index.class ? context.index(parameters[i].getName())
                        : context.param();
            }
            return Invocations.invoke(handle, arguments);
        };
    }

    /** {@code Object param} or {@code String param} (the annotation's param is a string). */
    private static boolean isParam(Parameter parameter) {
        return parameter.isNamePresent() && parameter.getName().equals("param")
                && (parameter.getType() == Object.class || parameter.getType() == String.class);
    }
}
