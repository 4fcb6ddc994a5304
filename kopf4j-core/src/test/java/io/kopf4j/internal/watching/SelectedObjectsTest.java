package io.kopf4j.internal.watching;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class SelectedObjectsTest {
    private final List<WatchEvent> passed = new ArrayList<>();
    private final AtomicInteger sweeps = new AtomicInteger();
    private final SelectedObjects selected = new SelectedObjects(passed::add, sweeps::incrementAndGet);

    private static WatchEvent event(String type, String name) {
        Map<String, Object> metadata = new LinkedHashMap<>(Map.of("name", name, "namespace", "ns", "uid", "uid-" + name,
                "labels", Map.of("app", "web")));
        return new WatchEvent(type, new LinkedHashMap<>(Map.of("apiVersion", "v1", "kind", "Pod", "metadata", metadata)));
    }

    private void list(String... names) {
        selected.listingStarted();
        for (String name : names) {
            selected.accept(event(null, name));
        }
        selected.listingEnded();
    }

    @Test
    void anObjectMissingFromAReListingGetsADeletionWithItsIdentity() {
        list("a", "b");
        selected.accept(event("ADDED", "c"));
        passed.clear();
        list("b");

        assertThat(passed).extracting(WatchEvent::type).containsExactly(null, "DELETED", "DELETED");
        List<WatchEvent> deletions = passed.subList(1, 3);
        assertThat(deletions).extracting(WatchEvent::name).containsExactlyInAnyOrder("a", "c");
        assertThat(deletions).extracting(WatchEvent::uid).containsExactlyInAnyOrder("uid-a", "uid-c");
        assertThat(deletions.get(0).object()).containsOnlyKeys("apiVersion", "kind", "metadata");
        assertThat(selected.size()).isEqualTo(1);
    }

    @Test
    void theSweepFollowsTheFirstListingOnly() {
        selected.listingStarted();
        assertThat(sweeps).as("not before the listing's end").hasValue(0);
        selected.listingEnded();
        list("a");
        assertThat(sweeps).hasValue(1);
    }

    @Test
    void objectsDeletedByTheWatchAreNotReportedAgain() {
        list("a", "b");
        selected.accept(event("DELETED", "a"));
        passed.clear();
        list("b");
        assertThat(passed).extracting(WatchEvent::type).containsExactly((String) null);
    }

    @Test
    void aListingCutShortIsReplacedByTheNext() {
        list("a");
        passed.clear();
        selected.listingStarted();   // the watcher stopped before the listing's end
        selected.listingStarted();
        selected.accept(event(null, "b"));
        selected.listingEnded();
        assertThat(passed).extracting(WatchEvent::name).containsExactly("b", "a");
        assertThat(selected.size()).isEqualTo(1);
    }
}
