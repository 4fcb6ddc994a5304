package io.kopf4j.reactor;

import java.time.Duration;
import java.util.List;

/**
 * Kopf's per-object throttling after an unexpected error: Fibonacci delays from 1 s to about
 * 10 min, the last one repeating, reset by a success. Only that object waits; others go on.
 */
final class Throttling {
    static final List<Integer> ERROR_DELAYS = List.of(1, 1, 2, 3, 5, 8, 13, 21, 34, 55, 89, 144, 233, 377, 610);

    private Throttling() {
    }

    /** The delay after the {@code errors}-th consecutive error (1-based). */
    static Duration delayAfter(int errors) {
        int index = Math.min(Math.max(errors, 1), ERROR_DELAYS.size()) - 1;
        return Duration.ofSeconds(ERROR_DELAYS.get(index));
    }
}
