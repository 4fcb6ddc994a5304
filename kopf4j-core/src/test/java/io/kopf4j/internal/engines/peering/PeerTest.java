package io.kopf4j.internal.engines.peering;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PeerTest {
    private static final Instant NOW = Instant.parse("2026-11-23T16:50:00.123456Z");

    @Test
    void writesKopfsStatusEntry() {
        Peer peer = new Peer("alice@laptop", 100, Duration.ofSeconds(60), NOW);

        assertThat(peer.asMap()).containsExactly(
                Map.entry("priority", 100), Map.entry("lifetime", 60L), Map.entry("lastseen", "2026-11-23T16:50:00.123456+00:00"));
    }

    @Test
    void writesTimesAsPythonsIsoformatWithoutZeroMicroseconds() {
        assertThat(Peer.isoformat(Instant.parse("2026-11-23T16:50:00Z"))).isEqualTo("2026-11-23T16:50:00+00:00");
        assertThat(Peer.isoformat(Instant.parse("2026-11-23T16:50:00.000001999Z"))).isEqualTo("2026-11-23T16:50:00.000001+00:00");
    }

    @Test
    void readsWhatKopfWrites() {
        Peer peer = Peer.parse("bob@pod", Map.of("priority", 666, "lifetime", 30, "lastseen", "2026-11-23T16:49:40.5+00:00"), NOW);

        assertThat(peer.priority()).isEqualTo(666);
        assertThat(peer.lifetime()).isEqualTo(Duration.ofSeconds(30));
        assertThat(peer.deadline()).isEqualTo(Instant.parse("2026-11-23T16:50:10.5Z"));
        assertThat(peer.isDead(NOW)).isFalse();
        assertThat(peer.isDead(Instant.parse("2026-11-23T16:50:10.5Z"))).isTrue();
    }

    @Test
    void readsMissingFieldsWithKopfsDefaults() {
        Peer peer = Peer.parse("old", Map.of(), NOW);

        assertThat(peer.priority()).isZero();
        assertThat(peer.lifetime()).isEqualTo(Duration.ofSeconds(60));
        assertThat(peer.lastseen()).isEqualTo(NOW);
    }

    @Test
    void readsTimesWithoutOffsetAsUtcAndWithZulu() {
        assertThat(Peer.parse("a", Map.of("lastseen", "2026-11-23T16:50:00"), NOW).lastseen())
                .isEqualTo(Instant.parse("2026-11-23T16:50:00Z"));
        assertThat(Peer.parse("a", Map.of("lastseen", "2026-11-23T18:50:00+02:00"), NOW).lastseen())
                .isEqualTo(Instant.parse("2026-11-23T16:50:00Z"));
    }

    @Test
    void printsAsKopfsRepr() {
        Peer peer = new Peer("alice@laptop/20261123165000/x7k", 0, Duration.ofSeconds(60), NOW);

        assertThat(java.util.List.of(peer)).hasToString(
                "[<Peer alice@laptop/20261123165000/x7k: priority=0, lifetime=60, lastseen='2026-11-23T16:50:00.123456+00:00'>]");
    }

    @Test
    void leavingPeerIsDeadAtOnce() {
        assertThat(Peer.leaving("alice@laptop", 0).isDead(Instant.now())).isTrue();
    }

    @Test
    void identitiesFollowKopfsShapes() {
        assertThat(PeerIdentity.detect(false, Map.of("POD_ID", "operator-7f9c"))).isEqualTo("operator-7f9c");
        assertThat(PeerIdentity.detect(true, Map.of())).matches("[^@]+@[^/]+");
        assertThat(PeerIdentity.detect(false, Map.of())).matches("[^@]+@[^/]+/\\d{14}/[abcdefhijklmnopqrstuvwxyz0-9]{3}");
        assertThat(PeerIdentity.withoutUselessSuffixes("box.localdomain.local")).isEqualTo("box");
    }
}
