package io.kopf4j.internal.reactor.processing;

import io.kopf4j.OperatorSettings;
import io.kopf4j.Patch;
import io.kopf4j.Resource;
import io.kopf4j.internal.clients.ObjectPatching;
import io.kopf4j.internal.reactor.queueing.Pressure;
import io.kopf4j.internal.structs.DurationTexts;
import io.kopf4j.storage.ProgressRecord;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import org.slf4j.Logger;

/**
 * The last step of a processing cycle, as Kopf's {@code application.apply}: one application of the
 * accumulated patch; or, for delayed handlers, a sleep until they are due (cut short by newer
 * events), then a touch of the object, whose watch event starts the next cycle with its freshest state.
 */
final class Application {
    /** Wake up at least this often while handlers are delayed: Kopf's keep-alive. */
    private static final Duration LONGEST_SLEEP = Duration.ofMinutes(10);

    /**
     * What the cycle's end did.
     *
     * @param applied nothing was left to patch, touch or wait for: the cycle is over
     * @param resourceVersion the object's version after our last PATCH, to await; null if none
     * @param remainingFns patch functions that met a newer object, for the next cycle
     * @param supersededVersions the intermediate versions of our own PATCHes, replaced by the last
     */
    record Applied(boolean applied, String resourceVersion, List<Consumer<Map<String, Object>>> remainingFns,
                   List<String> supersededVersions) {
    }

    private final Resource resource;
    private final OperatorSettings settings;
    private final ObjectPatching patcher;
    /** The handlers whose results a cycle's patch may hold. */
    private final Set<String> resultsOf;

    Application(Resource resource, OperatorSettings settings, ObjectPatching patcher, Set<String> resultsOf) {
        this.resource = resource;
        this.settings = settings;
        this.patcher = patcher;
        this.resultsOf = resultsOf;
    }

    Applied apply(Map<String, Object> body, Patch patch, Collection<Duration> delays, Pressure pressure, Logger logger)
            throws InterruptedException {
        Duration delay = delays.isEmpty() ? null : Collections.min(delays);
        String version = null;
        List<Consumer<Map<String, Object>>> remaining = List.of();
        List<String> superseded = List.of();
        if (!patch.isEmpty()) {
            settings.persistence.progressStorage.touch(body, patch, null);
            ObjectPatching.Applied applied = patcher.apply(resource, body, patch, resultsOf, logger);
            version = applied.resourceVersion();
            remaining = applied.remainingFns();
            superseded = applied.supersededVersions();
        }
        boolean positive = delay != null && !delay.isZero() && !delay.isNegative();
        if (positive && !patch.isEmpty()) {
            logger.debug("Sleeping was skipped because of the patch, {} seconds left.", DurationTexts.seconds(delay));
        } else if (delay != null) {
            Duration unslept = null;
            if (delay.compareTo(LONGEST_SLEEP) > 0) {
                logger.debug("Sleeping for {} (capped {}) seconds for the delayed handlers.", DurationTexts.seconds(delay),
                        DurationTexts.seconds(LONGEST_SLEEP));
                unslept = pressure.sleep(LONGEST_SLEEP);
            } else if (positive) {
                logger.debug("Sleeping for {} seconds for the delayed handlers.", DurationTexts.seconds(delay));
                unslept = pressure.sleep(delay);
            }
            if (unslept != null) {
                logger.debug("Sleeping was interrupted by new changes, {} seconds left.", DurationTexts.seconds(unslept));
            } else if (patch.isEmpty()) {
                version = touch(body, logger);
            }
        } else if (patch.isEmpty()) {
            return new Applied(true, null, remaining, superseded);
        }
        return new Applied(false, version, remaining, superseded);
    }

    /** Writes the touch marker, to be woken by its watch event now that handlers are due. */
    private String touch(Map<String, Object> body, Logger logger) {
        Patch touch = new Patch();
        settings.persistence.progressStorage.touch(body, touch, ProgressRecord.format(Instant.now()));
        if (touch.isEmpty()) {
            return null;
        }
        return patcher.apply(resource, body, touch, Set.of(), logger).resourceVersion();
    }
}
