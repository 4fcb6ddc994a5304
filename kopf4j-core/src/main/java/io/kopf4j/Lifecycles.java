package io.kopf4j;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Kopf's lifecycles: how many pending handlers of a change run per handling cycle, and which.
 *
 * <pre>{@code
 * OperatorSettings settings = new OperatorSettings();
 * settings.execution.lifecycle = Lifecycles.oneByOne();   // one pending handler per cycle, in order
 * }</pre>
 */
public final class Lifecycles {
    private Lifecycles() {
    }

    /** {@return all pending handlers in one cycle (one PATCH for all of them)} */
    public static Lifecycle allAtOnce() {
        return (handlers, retries) -> handlers;
    }

    /** {@return one handler per cycle, in declaration order} */
    public static Lifecycle oneByOne() {
        return (handlers, retries) -> handlers.isEmpty() ? handlers : handlers.subList(0, 1);
    }

    /** {@return one random handler per cycle} */
    public static Lifecycle randomized() {
        return (handlers, retries) -> handlers.isEmpty() ? handlers
                : List.of(handlers.get(ThreadLocalRandom.current().nextInt(handlers.size())));
    }

    /** {@return all pending handlers in one cycle, in a random order} */
    public static Lifecycle shuffled() {
        return (handlers, retries) -> {
            List<String> shuffled = new ArrayList<>(handlers);
            Collections.shuffle(shuffled);
            return shuffled;
        };
    }

    /** {@return Kopf's default: one handler per cycle, the one with the fewest attempts first} */
    public static Lifecycle asap() {
        return (handlers, retries) -> handlers.stream()
                .min(Comparator.comparingInt(id -> retries.getOrDefault(id, 0)))
                .map(List::of)
                .orElse(List.of());
    }
}
