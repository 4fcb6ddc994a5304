package io.kopf4j.internal.engines.children;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ChildCacheTest {
    private static Map<String, Object> child(String uid, String parent, String data) {
        Map<String, Object> metadata = parent == null ? Map.of("uid", uid, "name", uid)
                : Map.of("uid", uid, "name", uid, "ownerReferences", List.of(Map.of("uid", "other", "controller", false),
                        Map.of("uid", parent, "controller", true)));
        return Map.of("metadata", metadata, "data", Map.of("k", data));
    }

    @Test
    void childEventsReachTheirControllerBeforeAndAfter() {
        ChildCache cache = new ChildCache();
        assertThat(cache.seen(child("c1", "p1", "a"))).containsExactly("p1");
        assertThat(cache.seen(child("c1", "p1", "b"))).containsExactly("p1");
        assertThat(cache.childrenOf("p1")).singleElement().satisfies(c -> assertThat(c.get("data")).isEqualTo(Map.of("k", "b")));

        assertThat(cache.seen(child("c1", null, "b"))).containsExactly("p1");   // its owner reference removed by hand
        assertThat(cache.childrenOf("p1")).isEmpty();
        assertThat(cache.seen(child("c1", "p2", "b"))).containsExactly("p2");
        assertThat(cache.seen(child("c1", "p1", "b"))).containsExactlyInAnyOrder("p1", "p2");

        assertThat(cache.gone(child("c1", "p1", "b"))).containsExactly("p1");
        assertThat(cache.childrenOf("p1")).isEmpty();
        assertThat(cache.size()).isZero();
        assertThat(cache.gone(child("c1", "p1", "b"))).isEmpty();
        assertThat(cache.seen(Map.of("metadata", "garbage"))).isEmpty();
    }

    @Test
    void theEchoOfAVersionAlreadyKeptRunsNoParent() {
        ChildCache cache = new ChildCache();
        Map<String, Object> applied = Map.of("metadata", Map.of("uid", "c1", "resourceVersion", "5",
                "ownerReferences", List.of(Map.of("uid", "p1", "controller", true))));
        cache.seen(applied);   // what the parent's own apply returned
        assertThat(cache.seen(applied)).isEmpty();   // its watch event
        assertThat(cache.seen(Map.of("metadata", Map.of("uid", "c1", "resourceVersion", "6",
                "ownerReferences", List.of(Map.of("uid", "p1", "controller", true)))))).containsExactly("p1");
    }

    private static Map<String, Object> version(String resourceVersion, String data) {
        return Map.of("metadata", Map.of("uid", "c1", "resourceVersion", resourceVersion,
                "ownerReferences", List.of(Map.of("uid", "p1", "controller", true))), "data", Map.of("k", data));
    }

    @Test
    void anApplysAnswerOlderThanItsWatchDoesNotHideTheNewerVersion() {
        ChildCache cache = new ChildCache();
        assertThat(cache.seen(version("5", "applied"))).containsExactly("p1");   // the watch was quicker than the answer
        assertThat(cache.seen(version("6", "status by its controller"))).containsExactly("p1");
        assertThat(cache.applied(version("5", "applied"))).isEqualTo(version("6", "status by its controller"));
        assertThat(cache.childrenOf("p1")).containsExactly(version("6", "status by its controller"));
    }

    @Test
    void aWatchEventOlderThanTheAppliedAnswerChangesNothing() {
        ChildCache cache = new ChildCache();
        assertThat(cache.applied(version("7", "applied"))).isEqualTo(version("7", "applied"));
        assertThat(cache.seen(version("6", "before the apply"))).isEmpty();
        assertThat(cache.seen(version("7", "applied"))).isEmpty();
        assertThat(cache.childrenOf("p1")).containsExactly(version("7", "applied"));
    }
}
