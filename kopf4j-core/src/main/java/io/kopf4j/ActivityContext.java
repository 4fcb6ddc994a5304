package io.kopf4j;

import io.fabric8.kubernetes.client.KubernetesClient;
import org.slf4j.Logger;

/**
 * What an operator-level handler ({@code @On.Startup}, {@code @On.Cleanup}, {@code @On.Login},
 * {@code @On.Probe}) can ask for, in one parameter: for lambdas, and for methods that want all of it.
 * Annotated methods may instead declare the parts they need: {@code OperatorSettings},
 * {@code Memo}, {@code Logger}, {@code int retry}, {@code Object param}, and (cleanup and probe
 * handlers) {@code KubernetesClient}.
 *
 * <pre>{@code
 * Activity.startup("configure").handle(context -> {
 *     context.settings().posting.level = org.slf4j.event.Level.WARN;
 *     context.logger().info("configured at attempt {}", context.retry());
 *     return null;
 * });
 * }</pre>
 */
public interface ActivityContext {
    /** {@return the operator's settings; changes made by startup handlers apply from then on} */
    OperatorSettings settings();

    /** {@return the operator's memo, shared by its activities and copied into every object's memo} */
    Memo memo();

    /** {@return the activity's logger: {@code kopf.activities.<kind>}} */
    Logger logger();

    /** {@return how many times this handler has failed before in this activity: 0 at the first attempt} */
    int retry();

    /**
     * The operator's own Kubernetes client, as {@link HandlerContext#client()}: for cleanup and probe
     * handlers. Startup and login handlers run before the operator has logged in (as in Kopf), so
     * there is none yet: asking for it fails the handler for good with a {@link PermanentError}
     * naming it (and so the startup); so does a probe that runs while the operator is still starting.
     *
     * @return the client; shared, do not close it
     * @throws PermanentError in startup and login handlers
     */
    KubernetesClient client();

    /**
     * The operator's index of this id, as {@link HandlerContext#index(String)}: for probe handlers
     * (Kopf's example 16 counts the pods of an index). Probes may also declare it as a parameter named
     * like the index: {@code Index<String, Boolean> isRunning}.
     *
     * @param <K> the keys
     * @param <V> the values
     * @param id the index id (the indexing function's id), e.g. {@code "isRunning"}
     * @return the index, read-only and always current
     * @throws IllegalStateException in startup, login and cleanup handlers, which run without the indexes
     */
    default <K, V> Index<K, V> index(String id) {
        throw new IllegalStateException("only probe handlers reach the indexes (the index '" + id + "' asked for)");
    }

    /** {@return the handler's {@code param}, as declared with it, e.g. {@code "primary"}; null if none} */
    Object param();
}
