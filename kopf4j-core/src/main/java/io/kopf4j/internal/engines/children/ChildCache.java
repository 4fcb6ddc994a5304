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
     * @return the uids of the parents to run again: its controller now and before, if any; none for
     *         the echo of the version kept already, or for a version older than the one kept
     */
    Set<String> seen(Map<String, Object> child) {
        Kept kept = keep(child);
        String version = kept == null ? null : kept.now().resourceVersion();
        if (kept == null || !kept.stored()
                || version != null && kept.before() != null && version.equals(kept.before().resourceVersion())) {
            return Set.of();   // the echo of what the parent's own apply returned, or older than it: nothing new
        }
        return parents(kept.now().parent(), kept.before() == null ? null : kept.before().parent());
    }

    /**
     * A child as the parent's own apply returned it, kept unless its watch has delivered a newer
     * version already: the watch runs on its own thread, so a controller's change made after the apply
     * (a Deployment's status) may arrive before the apply's answer is handled, and an older answer
     * must not hide it (the parent would report a state that is gone, and no event would correct it).
     *
     * @return the child as kept now: the answer, or the newer version from its watch
     */
    Map<String, Object> applied(Map<String, Object> child) {
        Kept kept = keep(child);
        return kept == null || kept.stored() ? child : Json.parseMap(kept.now().json());
    }

    /** What {@link #keep} did: the entry before, the one now, and whether the given child is the one now. */
    private record Kept(Entry before, Entry now, boolean stored) {
    }

    /** Keeps the child unless the kept version is newer; indexes it by its controller. Null for a child without a uid. */
    private Kept keep(Map<String, Object> child) {
        String uid = uid(child);
        if (uid == null) {
            return null;
        }
        Entry given = new Entry(controller(child), text(child, "resourceVersion"), Json.bytes(child));
        Entry[] before = new Entry[1];
        Entry now = byUid.compute(uid, (key, current) -> {
            before[0] = current;
            return current != null && newer(current.resourceVersion(), given.resourceVersion()) ? current : given;
        });
        if (now != given) {
            return new Kept(before[0], now, false);
        }
        String previous = before[0] == null ? null : before[0].parent();
        if (previous != null && !previous.equals(given.parent())) {
            unindex(previous, uid);
        }
        if (given.parent() != null) {
            byParent.computeIfAbsent(given.parent(), key -> ConcurrentHashMap.newKeySet()).add(uid);
        }
        return new Kept(before[0], now, true);
    }

    /**
     * Whether version {@code a} is newer than {@code b}. Resource versions are opaque to clients, but
     * etcd's are increasing numbers, which the API server passes through; others are never taken as newer.
     */
    private static boolean newer(String a, String b) {
        try {
            return a != null && b != null && Long.parseLong(a) > Long.parseLong(b);
        } catch (NumberFormatException opaque) {
            return false;
        }
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
