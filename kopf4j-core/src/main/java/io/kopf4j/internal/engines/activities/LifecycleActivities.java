package io.kopf4j.internal.engines.activities;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.kopf4j.Memo;
import io.kopf4j.OperatorException;
import io.kopf4j.OperatorSettings;
import io.kopf4j.internal.intents.ActivityHandler;
import io.kopf4j.internal.intents.HandlerRegistry;
import io.kopf4j.internal.runtime.Engine;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The operator's own lifecycle activities as engines: the startup handlers run when the
 * {@linkplain #startup startup} engine starts (before the login: they may configure it), the
 * cleanup handlers when the {@linkplain #cleanup cleanup} engine is released (after every handler
 * and engine that took work has stopped, with the client still open), as Kopf's
 * {@code run_activity} at its operator's start and end.
 *
 * <pre>{@code
 * start(LifecycleActivities.startup(registry, settings, memo));                         // startup handlers
 * Login login = start(Login.run(...));
 * start(LifecycleActivities.cleanup(registry, settings, memo, login.handlerClient()));  // cleanup at release
 * }</pre>
 */
public final class LifecycleActivities implements Engine {
    private static final Logger LOG = LoggerFactory.getLogger(LifecycleActivities.class);

    private final String kind;
    private final HandlerRegistry registry;
    private final OperatorSettings settings;
    private final Memo memo;
    private final KubernetesClient client;

    private LifecycleActivities(String kind, HandlerRegistry registry, OperatorSettings settings, Memo memo,
                                KubernetesClient client) {
        this.kind = kind;
        this.registry = registry;
        this.settings = settings;
        this.memo = memo;
        this.client = client;
    }

    /** The startup handlers, run at this engine's start, without a client: the operator is not logged in yet. */
    public static LifecycleActivities startup(HandlerRegistry registry, OperatorSettings settings, Memo memo) {
        return new LifecycleActivities(ActivityHandler.STARTUP, registry, settings, memo, null);
    }

    /** The cleanup handlers, run at this engine's release, with the client for handlers. */
    public static LifecycleActivities cleanup(HandlerRegistry registry, OperatorSettings settings, Memo memo,
                                              KubernetesClient client) {
        return new LifecycleActivities(ActivityHandler.CLEANUP, registry, settings, memo, client);
    }

    /**
     * Runs the startup handlers until all have finished.
     *
     * @throws ActivityError if some failed for good: the operator does not start
     */
    @Override
    public void start() throws InterruptedException {
        if (kind.equals(ActivityHandler.STARTUP)) {
            Activities.run(kind, registry.activities(kind), settings, memo);
        }
    }

    /** Runs the cleanup handlers; a failure is logged, and the operator's stop goes on. */
    @Override
    public void release(boolean handlersEnded) throws InterruptedException {
        if (kind.equals(ActivityHandler.CLEANUP)) {
            try {
                Activities.run(kind, registry.activities(kind), settings, memo, client, null);
            } catch (OperatorException e) {
                LOG.error("Cleanup failed: {}", e.getMessage());
            }
        }
    }
}
