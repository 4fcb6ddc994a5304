package io.kopf4j.reactor;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * What processing one event left behind.
 *
 * @param patchedVersion the resourceVersion our PATCH produced, to wait for; null if nothing was patched
 * @param delays when unfinished handlers are due; empty when nothing is pending
 * @param remainingFns patch functions that met a newer object, for the next cycle
 * @param matched a changing handler was concerned (stealth objects are not)
 */
record ProcessingResult(String patchedVersion, List<Duration> delays, List<Consumer<Map<String, Object>>> remainingFns,
                        boolean matched) {
    static final ProcessingResult NOTHING = new ProcessingResult(null, List.of(), List.of(), false);
}
