package io.kopf4j.internal.engines.children;

import io.kopf4j.internal.structs.Json;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The children this operator applied, as last seen in their watches: kept as compact JSON bytes
 * (a parsed tree would cost several times as much per child), by uid, with an index from each
 * parent's uid (the controller owner reference) to its children. A child event tells which parents
 * to run again: the controller of the new object and of the old one, so that a hand-removed owner
 * reference still reaches the parent it was taken from (controller-runtime's {@code Owns()}).
 *
 * <pre>{@code
 * Set<String> parents = cache.seen(event.object());   // parents to run again
 * List<Map<String, Object>> children = cache.childrenOf(parentUid);
 * }</pre>
 */
final class ChildCache {
    private record Entry(String parent, String resourceVersion, byte[] json) {
    }

    private final Map<String, Entry> byUid = new ConcurrentHashMap<>();
    private final Map<String, Set<String>> byParent = new ConcurrentHashMap<>();

    /**
     * A child as its watch delivered it (added or modified).
     *
     * @return the uids of the parents to run again: its controller now and before, if any
     */
    Set<String> seen(Map<String, Object> child) {
        String uid = uid(child);
        if (uid == null) {
            return Set.of();
        }
        String parent = controller(child);
        String version = text(child, "resourceVersion");
        Entry before = byUid.put(uid, new Entry(parent, version, Json.bytes(child)));
        if (before != null && version != null && version.equals(before.resourceVersion())) {
            return Set.of();   // the echo of what the parent's own apply returned: nothing new for it
        }
        String previous = before == null ? null : before.parent();
        if (previous != null && !previous.equals(parent)) {
            unindex(previous, uid);
        }
        if (parent != null) {
            byParent.computeIfAbsent(parent, key -> ConcurrentHashMap.newKeySet()).add(uid);
        }
        return parents(parent, previous);
    }

    /**
     * A child deleted (or gone from the selection).
     *
     * @return the uid of the parent to run again, if it had one
     */
    Set<String> gone(Map<String, Object> child) {
        String uid = uid(child);
        Entry before = uid == null ? null : byUid.remove(uid);
        if (before == null || before.parent() == null) {
            return Set.of();
        }
        unindex(before.parent(), uid);
        return Set.of(before.parent());
    }

    /** {@return the parent's children as last seen, parsed} */
    List<Map<String, Object>> childrenOf(String parentUid) {
        List<Map<String, Object>> children = new ArrayList<>();
        for (String uid : byParent.getOrDefault(parentUid, Set.of())) {
            Entry entry = byUid.get(uid);
            if (entry != null) {
                children.add(Json.parseMap(entry.json()));
            }
        }
        return children;
    }

    /** {@return how many children are kept} */
    int size() {
        return byUid.size();
    }

    private void unindex(String parent, String uid) {
        byParent.computeIfPresent(parent, (key, uids) -> {
            uids.remove(uid);
            return uids.isEmpty() ? null : uids;
        });
    }

    private static Set<String> parents(String now, String before) {
        if (now == null) {
            return before == null ? Set.of() : Set.of(before);
        }
        return before == null || before.equals(now) ? Set.of(now) : Set.of(now, before);
    }

    @SuppressWarnings("unchecked")
    private static String controller(Map<String, Object> child) {
        if (child.get("metadata") instanceof Map<?, ?> metadata && metadata.get("ownerReferences") instanceof List<?> owners) {
            for (Object owner : owners) {
                if (owner instanceof Map<?, ?> reference && Boolean.TRUE.equals(reference.get("controller"))
                        && reference.get("uid") instanceof String uid) {
                    return uid;
                }
            }
        }
        return null;
    }

    private static String uid(Map<String, Object> child) {
        return text(child, "uid");
    }

    private static String text(Map<String, Object> child, String field) {
        return child.get("metadata") instanceof Map<?, ?> metadata && metadata.get(field) instanceof String text ? text : null;
    }
}
