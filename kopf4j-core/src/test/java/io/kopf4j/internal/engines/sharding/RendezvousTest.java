package io.kopf4j.internal.engines.sharding;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** The hashing that splits objects between members: stable, balanced, and moving little. */
class RendezvousTest {
    private static final List<String> UIDS = IntStream.range(0, 3000)
            .mapToObj(i -> UUID.nameUUIDFromBytes(("object-" + i).getBytes()).toString()).toList();

    private static Map<String, String> owners(List<String> members) {
        return UIDS.stream().collect(Collectors.toMap(Function.identity(), uid -> Rendezvous.owner(uid, members)));
    }

    @Test
    void theOwnerDependsOnTheMembersNotOnTheirOrder() {
        assertThat(owners(List.of("a", "b", "c"))).isEqualTo(owners(List.of("c", "a", "b")));
        assertThat(Rendezvous.owner("uid", List.of())).isNull();
        assertThat(Rendezvous.owner("uid", List.of("a"))).isEqualTo("a");
    }

    @Test
    void theHashNeverChangesBetweenVersions() {
        // Replicas of two versions must agree: these values are the contract.
        assertThat(Rendezvous.weight("replica-a", "0b1c8a9e-uid")).isEqualTo(2463814925685978291L);
        List<String> members = List.of("replica-a", "replica-b", "replica-c");
        assertThat(List.of("u1", "u2", "u3", "u4", "u5", "u6").stream().map(uid -> Rendezvous.owner(uid, members)))
                .containsExactly("replica-c", "replica-c", "replica-a", "replica-c", "replica-b", "replica-a");
    }

    @Test
    void threeMembersGetAboutAThirdEach() {
        Map<String, Long> counts = owners(List.of("replica-a", "replica-b", "replica-c")).values().stream()
                .collect(Collectors.groupingBy(Function.identity(), Collectors.counting()));
        assertThat(counts).hasSize(3);
        // 1000 expected each; a binomial's deviation is about 26: 10% is four of them.
        counts.values().forEach(count -> assertThat(count).isBetween(900L, 1100L));
    }

    @Test
    void aMemberJoiningTakesOnlyItsShareAndFromEveryone() {
        Map<String, String> before = owners(List.of("a", "b", "c"));
        Map<String, String> after = owners(List.of("a", "b", "c", "d"));
        List<String> moved = UIDS.stream().filter(uid -> !before.get(uid).equals(after.get(uid))).toList();
        assertThat(moved).allMatch(uid -> after.get(uid).equals("d"));
        assertThat(moved.size()).isBetween(650, 850);   // a quarter of 3000
    }

    @Test
    void aMemberLeavingGivesAwayOnlyItsOwnObjects() {
        Map<String, String> before = owners(List.of("a", "b", "c"));
        Map<String, String> after = owners(List.of("a", "c"));
        UIDS.stream().filter(uid -> !before.get(uid).equals("b"))
                .forEach(uid -> assertThat(after.get(uid)).isEqualTo(before.get(uid)));
        assertThat(UIDS.stream().filter(uid -> before.get(uid).equals("b")).map(after::get).distinct())
                .containsExactlyInAnyOrder("a", "c");
    }
}
