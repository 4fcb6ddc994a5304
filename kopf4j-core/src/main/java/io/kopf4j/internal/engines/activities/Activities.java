package io.kopf4j.internal.engines.activities;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.kopf4j.ActivityContext;
import io.kopf4j.ActivityError;
import io.kopf4j.ErrorsMode;
import io.kopf4j.Index;
import io.kopf4j.Lifecycles;
import io.kopf4j.Memo;
import io.kopf4j.OperatorSettings;
import io.kopf4j.PermanentError;
import io.kopf4j.internal.actions.Execution;
import io.kopf4j.internal.actions.HandlerState;
import io.kopf4j.internal.actions.Outcome;
import io.kopf4j.internal.actions.Results;
import io.kopf4j.internal.actions.State;
import io.kopf4j.internal.intents.ActivityHandler;
import io.kopf4j.internal.runtime.Metrics;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs Kopf's activities (startup, cleanup, authentication, probe) as Kopf's {@code run_activity}:
 * all due handlers at once, through the same {@link Execution} rules as every handler, again until
 * all have finished, sleeping until the earliest retry. Each handler is retried on its own schedule
 * and counts its own retries; a failed handler does not stop the others. If any failed for good,
 * the activity fails with an {@link ActivityError} naming them. A {@link io.kopf4j.LoginError} is an
 * exception like any other, as in Kopf: retried or not as the handler's errors mode says, so that a
 * token service that is briefly down does not stop the operator.
 *
 * <pre>{@code
 * Map<String, Object> credentials = Activities.run(ActivityHandler.AUTHENTICATION, logins, settings, memo);
 * }</pre>
 */
public final class Activities {
    private Activities() {
    }

    /**
     * Runs handlers that run before the login (startup, login), without a client: one that asks for
     * it fails; see {@link #run(String, List, OperatorSettings, Memo, KubernetesClient, Function)}.
     *
     * @throws ActivityError if some handlers failed for good
     */
    public static Map<String, Object> run(String kind, List<ActivityHandler> handlers, OperatorSettings settings, Memo memo)
            throws InterruptedException {
        return run(kind, handlers, settings, memo, null, null);
    }

    /**
     * Runs the handlers until all have finished; returns their non-null results by handler id.
     *
     * @param client the operator's client for handlers, or null before the login
     * @param indexes the operator's index of an id, for probes; null for the other activities
     * @throws ActivityError if some handlers failed for good
     */
    public static Map<String, Object> run(String kind, List<ActivityHandler> handlers, OperatorSettings settings, Memo memo,
                                          KubernetesClient client, Function<String, Index<?, ?>> indexes)
            throws InterruptedException {
        Logger logger = LoggerFactory.getLogger("kopf.activities." + kind);
        State state = State.fromScratch().withHandlers(handlers);
        Map<String, Outcome> outcomes = new LinkedHashMap<>();
        while (!state.done()) {
            // A new execution each round: startup handlers may have changed the default backoff.
            Execution execution = new Execution(Lifecycles.allAtOnce(), settings.execution.defaultBackoff, null,
                    new Metrics(null), null, null, null);
            Map<String, Outcome> current = execution.runOnce(Lifecycles.allAtOnce(), handlers, state, logger,
                    ErrorsMode.TEMPORARY, (handler, handlerState, subrefs) -> invoke(kind, handler, handlerState, settings, memo, logger, client, indexes));
            outcomes.putAll(current);
            state = state.withOutcomes(current);
            if (Thread.interrupted()) {
                throw new InterruptedException("interrupted during the " + kind + " activity");
            }
            Duration delay = state.delay().orElse(Duration.ZERO);
            if (!delay.isZero()) {
                Thread.sleep(delay);
            }
        }
        Map<String, Throwable> failures = new LinkedHashMap<>();
        outcomes.forEach((id, outcome) -> {
            if (outcome.error() != null) {
                failures.put(id, outcome.error());
            }
        });
        if (!failures.isEmpty()) {
            List<String> reasons = failures.entrySet().stream()
                    .map(e -> "'" + e.getKey() + "': " + HandlerState.messageOf(e.getValue())).toList();
            throw new ActivityError("One or more " + kind + " handlers failed: " + String.join("; ", reasons),
                    failures, failures.values().iterator().next());
        }
        Map<String, Object> results = new LinkedHashMap<>();
        outcomes.forEach((id, outcome) -> {
            if (outcome.result() != null) {
                results.put(id, outcome.result());
            }
        });
        return results;
    }

    private static Object invoke(String kind, ActivityHandler handler, HandlerState state, OperatorSettings settings,
                                 Memo memo, Logger logger, KubernetesClient client,
                                 Function<String, Index<?, ?>> indexes) throws Exception {
        Object result = handler.function().call(new Context(settings, memo, logger, state.retries(), handler.param(),
                kind, handler.id(), client, indexes));
        // A probe's result is served as JSON by the liveness endpoint: one that cannot be fails the probe.
        return ActivityHandler.PROBE.equals(kind) ? Results.storable(result) : result;
    }

    /** An activity handler's context; {@code kind} and {@code id} name it when it asks for a client it cannot have. */
    private record Context(OperatorSettings settings, Memo memo, Logger logger, int retry, Object param,
                           String kind, String id, KubernetesClient client, Function<String, Index<?, ?>> indexes)
            implements ActivityContext {
        @Override
        @SuppressWarnings("unchecked")
        public <K, V> Index<K, V> index(String indexId) {
            if (indexes == null) {
                return ActivityContext.super.index(indexId);
            }
            return (Index<K, V>) indexes.apply(indexId);
        }

        @Override
        public KubernetesClient client() {
            if (client == null) {
                // Permanent: retrying cannot help, the login comes only after the startup succeeds.
                throw new PermanentError(ActivityHandler.withoutClient(kind, "'" + id + "'"));
            }
            return client;
        }
    }

}
