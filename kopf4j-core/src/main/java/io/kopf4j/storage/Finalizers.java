package io.kopf4j.storage;

import io.kopf4j.internal.structs.Dicts;
import io.kopf4j.internal.structs.Json;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Kopf's finalizer handling: the marker that makes Kubernetes wait with a deletion until the
 * operator's delete handlers ran. Added and removed as patch functions, so that the list is edited
 * atomically (a JSON Patch guarded by the resourceVersion), never overwriting others' finalizers.
 *
 * <pre>{@code
 * if (Finalizers.isDeletionOngoing(body) && Finalizers.isDeletionBlocked(body, Finalizers.DEFAULT)) {
 *     patch.fns().add(Finalizers.allowDeletion(Finalizers.DEFAULT));
 * }
 * }</pre>
 */
public final class Finalizers {
    /** Kopf's finalizer. */
    public static final String DEFAULT = "kopf.zalando.org/KopfFinalizerMarker";
    private static final List<String> PATH = List.of("metadata", "finalizers");

    private Finalizers() {
    }

    /**
     * {@return true if the object has a {@code deletionTimestamp}}
     *
     * @param body the object
     */
    public static boolean isDeletionOngoing(Map<String, Object> body) {
        return Dicts.resolve(body, List.of("metadata", "deletionTimestamp"), null) != null;
    }

    /**
     * {@return true if the object carries the finalizer}
     *
     * @param body the object
     * @param finalizer the finalizer
     */
    public static boolean isDeletionBlocked(Map<String, Object> body, String finalizer) {
        return Dicts.resolve(body, PATH, List.of()) instanceof List<?> list && list.contains(finalizer);
    }

    /**
     * Adds the finalizer to the body's list.
     *
     * @param finalizer the finalizer
     * @return a patch function, for {@link io.kopf4j.Patch#fns()}
     */
    public static Consumer<Map<String, Object>> blockDeletion(String finalizer) {
        return new Edit("block_deletion", finalizer, body -> {
            List<Object> finalizers = finalizers(body);
            if (!finalizers.contains(finalizer)) {
                finalizers.add(finalizer);
                Dicts.ensure(body, PATH, finalizers);
            }
        });
    }

    /**
     * Removes the finalizer from the body's list.
     *
     * @param finalizer the finalizer
     * @return a patch function, for {@link io.kopf4j.Patch#fns()}
     */
    public static Consumer<Map<String, Object>> allowDeletion(String finalizer) {
        return new Edit("allow_deletion", finalizer, body -> {
            List<Object> finalizers = finalizers(body);
            if (finalizers.remove(finalizer)) {
                Dicts.ensure(body, PATH, finalizers);
            }
        });
    }

    /**
     * A patch function shown as Kopf's ({@code functools.partial(finalizers.block_deletion, finalizer=...)})
     * in the log line of a patch that could not be applied in full.
     */
    private record Edit(String function, String finalizer, Consumer<Map<String, Object>> edit)
            implements Consumer<Map<String, Object>> {
        @Override
        public void accept(Map<String, Object> body) {
            edit.accept(body);
        }

        @Override
        public String toString() {
            return "functools.partial(<function " + function + " at 0x" + Integer.toHexString(System.identityHashCode(this))
                    + ">, finalizer=" + Json.pythonRepr(finalizer) + ")";
        }
    }

    private static List<Object> finalizers(Map<String, Object> body) {
        return Dicts.resolve(body, PATH, null) instanceof List<?> list ? new ArrayList<>(list) : new ArrayList<>();
    }
}
