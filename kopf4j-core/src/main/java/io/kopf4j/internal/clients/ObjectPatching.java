package io.kopf4j.internal.clients;

import io.kopf4j.Patch;
import io.kopf4j.Resource;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import org.slf4j.Logger;

/**
 * Writes an accumulated patch to an object: what processing needs of the API, behind an interface
 * so that processing can be tested with a fake. {@link ObjectPatcher} is the real one.
 */
public interface ObjectPatching {
    /**
     * What was applied.
     *
     * @param resourceVersion the object's version after the last PATCH; null if nothing was sent or it is gone
     * @param remainingFns functions that met a newer object, for the next cycle
     * @param supersededVersions the versions of the earlier PATCHes of the same patch (the status
     *                           before the body): states that our own last PATCH replaced
     */
    record Applied(String resourceVersion, List<Consumer<Map<String, Object>>> remainingFns, List<String> supersededVersions) {
        public Applied(String resourceVersion, List<Consumer<Map<String, Object>>> remainingFns) {
            this(resourceVersion, remainingFns, List.of());
        }
    }

    /**
     * Applies the patch to the object with this body (its last seen state).
     *
     * @param resultsOf the handlers whose results the patch may hold in {@code status.<id>} (their
     *                  sub-handlers' too): a result that the API server rejects is left out, and the
     *                  rest of the patch stored, rather than the whole patch failing for it
     */
    Applied apply(Resource resource, Map<String, Object> body, Patch patch, Set<String> resultsOf, Logger logger);
}
