package io.kopf4j.internal.reactor.processing;

import static org.assertj.core.api.Assertions.assertThat;

import io.kopf4j.internal.selection.LabelSelector;
import io.kopf4j.internal.selection.Selection;
import io.kopf4j.internal.watching.WatchEvent;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SelectionExitsTest {
    private static final Selection WEB = new Selection(LabelSelector.parse("app=web"), null);

    private static Map<String, Object> body(String uid, String app) {
        Map<String, Object> metadata = new LinkedHashMap<>(Map.of("name", "ex", "namespace", "ns", "uid", uid,
                "labels", Map.of("app", app)));
        return new LinkedHashMap<>(Map.of("metadata", metadata));
    }

    private static SelectionExits.Confirmed confirm(Map<String, Object> current) {
        return new SelectionExits(WEB, event -> current).confirm(new WatchEvent("DELETED", body("uid-1", "web")));
    }

    @Test
    void anObjectThereOutsideTheSelectionDeparted() {
        SelectionExits.Confirmed confirmed = confirm(body("uid-1", "db"));
        assertThat(confirmed.departed()).isTrue();
        assertThat(confirmed.event().type()).isEqualTo("MODIFIED");
        assertThat(confirmed.event().object()).isEqualTo(body("uid-1", "db"));
    }

    @Test
    void anObjectGoneOrAnotherUnderItsNameWasDeleted() {
        assertThat(confirm(null).event().type()).isEqualTo("DELETED");
        assertThat(confirm(null).departed()).isFalse();
        SelectionExits.Confirmed recreated = confirm(body("uid-2", "db"));
        assertThat(recreated.event().type()).isEqualTo("DELETED");
        assertThat(recreated.event().uid()).isEqualTo("uid-1");
    }

    @Test
    void anObjectBackInsideIsAChange() {
        SelectionExits.Confirmed confirmed = confirm(body("uid-1", "web"));
        assertThat(confirmed.departed()).isFalse();
        assertThat(confirmed.event().type()).isEqualTo("MODIFIED");
    }

    @Test
    void aFailedReadIsTakenAsTheDeletionItSaid() {
        SelectionExits exits = new SelectionExits(WEB, event -> {
            throw new IllegalStateException("connection refused");
        });
        assertThat(exits.confirm(new WatchEvent("DELETED", body("uid-1", "web"))).event().type()).isEqualTo("DELETED");
    }

    @Test
    void otherEventsAndWholeResourcesPassUnread() {
        SelectionExits exits = new SelectionExits(WEB, event -> {
            throw new AssertionError("no read");
        });
        WatchEvent modified = new WatchEvent("MODIFIED", body("uid-1", "web"));
        assertThat(exits.confirm(modified).event()).isSameAs(modified);
        WatchEvent deleted = new WatchEvent("DELETED", body("uid-1", "web"));
        assertThat(SelectionExits.NONE.confirm(deleted).event()).isSameAs(deleted);
    }
}
