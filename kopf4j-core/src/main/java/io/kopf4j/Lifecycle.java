package io.kopf4j;

import java.util.List;

/**
 * Which of the pending handlers of a change run in this handling cycle; the others run in the next
 * cycles. See {@link Lifecycles} for Kopf's; {@link Lifecycles#asap()} is the default.
 *
 * <pre>{@code
 * Operator.builder().lifecycle(Lifecycles.allAtOnce())...
 * Operator.builder().lifecycle((handlers, retries) -> handlers.subList(0, 1))...
 * }</pre>
 */
@FunctionalInterface
public interface Lifecycle {
    /**
     * @param handlers the ids of the handlers due now, in declaration order
     * @param retries each handler's attempts so far, by id
     * @return the ids to run now, a subset of {@code handlers}
     */
    List<String> select(List<String> handlers, java.util.Map<String, Integer> retries);
}
