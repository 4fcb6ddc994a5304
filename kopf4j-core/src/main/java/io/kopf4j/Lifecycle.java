package io.kopf4j;

import java.util.List;

/**
 * Which of the pending handlers of a change run in this handling cycle; the others run in the next
 * cycles. See {@link Lifecycles} for Kopf's; {@link Lifecycles#asap()} is the default. Set it in
 * {@link OperatorSettings.Execution#lifecycle}.
 *
 * <pre>{@code
 * OperatorSettings settings = new OperatorSettings();
 * settings.execution.lifecycle = Lifecycles.allAtOnce();
 * // or one of your own: the first pending handler in declaration order
 * settings.execution.lifecycle = (handlers, retries) -> handlers.isEmpty() ? handlers : handlers.subList(0, 1);
 * Operator.builder().settings(settings)...
 * }</pre>
 */
@FunctionalInterface
public interface Lifecycle {
    /**
     * Picks the handlers to run in this cycle.
     *
     * @param handlers the ids of the handlers due now, in declaration order
     * @param retries each handler's attempts so far, by id
     * @return the ids to run now, a subset of {@code handlers}
     */
    List<String> select(List<String> handlers, java.util.Map<String, Integer> retries);
}
