package io.kopf4j.reactor;

import java.time.Duration;

/**
 * What processing one event left behind.
 *
 * @param patchedVersion the resourceVersion our PATCH produced, to wait for; null if nothing was patched
 * @param retryAfter when to process the object again though nothing changes; null if not needed
 */
record ProcessingResult(String patchedVersion, Duration retryAfter) {
    static final ProcessingResult NOTHING = new ProcessingResult(null, null);
}
