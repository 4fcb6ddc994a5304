package io.kopf4j.internal.engines.sharding;

import static org.assertj.core.api.Assertions.assertThat;

import io.kopf4j.OperatorSettings;
import io.kopf4j.internal.runtime.Metrics;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Predicate;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * The view protocol with fake Leases, a fake clock and fake handling: who owns what while members
 * join, die and lose their Leases, and that no object is ever owned by two replicas at once.
 */
class ShardingEngineTest {
    private static final List<String> UIDS = IntStream.range(0, 300)
            .mapToObj(i -> UUID.nameUUIDFromBytes(("object-" + i).getBytes()).toString()).toList();

    private final AtomicLong clock = new AtomicLong();
    private final FakeLeases leases = new FakeLeases();
    private final List<Replica> replicas = new ArrayList<>();

    /** The Leases of one group in memory, with resourceVersions as the API server keeps them. */
    private static final class FakeLeases implements LeaseStore {
        final Map<String, MemberLease> byName = new LinkedHashMap<>();
        private long version;

        @Override
        public synchronized List<MemberLease> list() {
            return List.copyOf(byName.values());
        }

        @Override
        public synchronized MemberLease create(String member, String holder, String view) throws Lost {
            String name = "lease-" + member;
            if (byName.containsKey(name)) {
                throw new Lost(name + " exists");
            }
            return store(new MemberLease(name, member, holder, view, null, 3));
        }

        @Override
        public synchronized MemberLease hold(MemberLease lease, String holder, String view) throws Lost {
            MemberLease current = byName.get(lease.name());
            if (current == null || !current.resourceVersion().equals(lease.resourceVersion())) {
                throw new Lost(lease.name() + " was written by someone else");
            }
            return store(new MemberLease(lease.name(), lease.member(), holder, view, null, 3));
        }

        @Override
        public synchronized void delete(MemberLease lease) {
            byName.remove(lease.name());
        }

        private MemberLease store(MemberLease lease) {
            MemberLease stored = new MemberLease(lease.name(), lease.member(), lease.holder(), lease.view(),
                    String.valueOf(++version), lease.durationSeconds());
            byName.put(stored.name(), stored);
            return stored;
        }
    }

    /**
     * One replica: its engine and what the engine did to its handling. A replica cut off from the
     * API server still runs (the worst case: it could still be handling), but its calls fail.
     */
    private final class Replica implements ShardingEngine.Handling, LeaseStore {
        final String name;
        final ShardingEngine engine;
        final Set<String> busy = ConcurrentHashMap.newKeySet();
        boolean paused;
        volatile boolean cutOff;
        boolean stopped;
        /** Its loop does not run (a long pause of its JVM), though its calls would succeed. */
        boolean frozen;
        /** Its next write to a Lease takes this long. */
        Duration slowWrite = Duration.ZERO;
        int resumes;

        Replica(String name, Integer shards) {
            this.name = name;
            OperatorSettings.Sharding settings = new OperatorSettings.Sharding();
            settings.shards = shards;
            settings.leaseDuration = Duration.ofSeconds(3);
            settings.renewPeriod = Duration.ofMillis(500);
            engine = new ShardingEngine(settings, this, name, this, new Metrics(null), new Ownership(clock::get), clock::get);
            pause();
        }

        private LeaseStore api() {
            if (cutOff) {
                throw new IllegalStateException("cut off from the API server");
            }
            return leases;
        }

        @Override
        public List<MemberLease> list() {
            return api().list();
        }

        @Override
        public MemberLease create(String member, String holder, String view) throws Lost {
            return api().create(member, holder, view);
        }

        @Override
        public MemberLease hold(MemberLease lease, String holder, String view) throws Lost {
            clock.addAndGet(slowWrite.toNanos());
            slowWrite = Duration.ZERO;
            return api().hold(lease, holder, view);
        }

        @Override
        public void delete(MemberLease lease) {
            api().delete(lease);
        }

        @Override
        public void pause() {
            paused = true;
        }

        @Override
        public void resume() {
            paused = false;
            resumes++;
        }

        @Override
        public boolean idle(Predicate<String> keys) {
            return busy.stream().noneMatch(keys);
        }

        boolean owns(String uid) {
            return engine.ownership().owns(uid);
        }

        long owned() {
            return UIDS.stream().filter(this::owns).count();
        }
    }

    private Replica replica(String name) {
        return replica(name, OperatorSettings.Sharding.AUTO);
    }

    private Replica replica(String name, Integer shards) {
        Replica replica = new Replica(name, shards);
        replicas.add(replica);
        return replica;
    }

    /** Every live replica ticks once, then the clock moves on by a quarter of a renew period. */
    private void round() throws InterruptedException {
        for (Replica replica : replicas) {
            if (!replica.stopped && !replica.frozen) {
                try {
                    replica.engine.tick();
                } catch (IllegalStateException e) {
                    // the API server is down: the engine's loop logs it and fences if stale
                }
            }
            assertNoObjectOwnedTwice();
        }
        clock.addAndGet(Duration.ofMillis(125).toNanos());
    }

    private void rounds(int count) throws InterruptedException {
        for (int i = 0; i < count; i++) {
            round();
        }
    }

    private void assertNoObjectOwnedTwice() {
        for (String uid : UIDS) {
            assertThat(replicas.stream().filter(replica -> replica.owns(uid)).count()).as(uid).isLessThanOrEqualTo(1);
        }
    }

    @Test
    void aReplicaAloneOwnsEverythingOnceItHoldsItsLease() throws InterruptedException {
        Replica a = replica("a");
        assertThat(a.owned()).as("nothing before the first view").isZero();
        rounds(4);
        assertThat(a.paused).isFalse();
        assertThat(a.owned()).isEqualTo(UIDS.size());
        assertThat(leases.byName).containsKey("lease-a");
    }

    @Test
    void aJoiningReplicaWaitsUntilTheObjectsItTakesArePutDown() throws InterruptedException {
        Replica a = replica("a");
        rounds(4);
        String moving = UIDS.stream().filter(uid -> Rendezvous.owner(uid, List.of("a", "b")).equals("b")).findFirst()
                .orElseThrow();
        a.busy.add(moving);
        Replica b = replica("b");
        rounds(10);
        assertThat(a.paused).as("a pauses for the hand-over").isTrue();
        assertThat(a.owns(moving)).as("a drops what it loses at once").isFalse();
        assertThat(b.owned()).as("b takes nothing while a still handles an object it loses").isZero();
        a.busy.clear();
        rounds(4);
        assertThat(a.paused || b.paused).isFalse();
        assertThat(b.owns(moving)).isTrue();
        assertThat(a.owned() + b.owned()).isEqualTo(UIDS.size());
        assertThat(a.owned()).isBetween(100L, 200L);
    }

    @Test
    void aDeadReplicasObjectsMoveOnlyAfterItsLeaseExpired() throws InterruptedException {
        Replica a = replica("a");
        Replica b = replica("b");
        Replica c = replica("c");
        rounds(6);
        assertThat(a.owned() + b.owned() + c.owned()).isEqualTo(UIDS.size());
        // Cut off (or SIGKILLed: then it handles nothing anyway): its Lease stays, unrenewed.
        b.cutOff = true;
        rounds(20);        // 2.5 s < the 3 s Lease
        assertThat(a.owned() + c.owned()).as("b's objects wait for its Lease to expire").isLessThan(UIDS.size());
        assertThat(b.owned()).as("b fenced itself before").isZero();
        rounds(12);
        assertThat(a.owned() + c.owned()).isEqualTo(UIDS.size());
        assertThat(a.paused || c.paused).isFalse();
        rounds(60);
        assertThat(leases.byName).as("a long dead member's Lease is deleted").doesNotContainKey("lease-b");
    }

    @Test
    void aReplicaThatCannotRenewItsLeaseStopsHandlingBeforeTheOthersTakeOver() throws InterruptedException {
        Replica a = replica("a");
        rounds(4);
        a.cutOff = true;
        rounds(18);   // 2.25 s since its last renewal
        assertThat(a.owned()).as("still within its Lease").isEqualTo(UIDS.size());
        rounds(2);    // 2.5 s: the Lease's 3 s less one renew period
        assertThat(a.owned()).as("fenced").isZero();
        assertThat(a.paused).isTrue();
        a.cutOff = false;
        rounds(8);
        assertThat(a.owned()).as("back once it holds a Lease again").isEqualTo(UIDS.size());
    }

    @Test
    void aReplicaThatRenewsTooLateJoinsAgainInsteadOfHandlingWhatTheOthersTookOver() throws InterruptedException {
        Replica a = replica("a");
        Replica b = replica("b");
        rounds(6);
        b.frozen = true;
        rounds(32);   // 4 s: the others counted b out after its 3 s Lease
        assertThat(a.owned()).isEqualTo(UIDS.size());
        assertThat(b.owned()).isZero();
        b.frozen = false;
        rounds(1);    // b renews its Lease, late: it must not own its old share again, which a handles now
        assertThat(b.owned()).isZero();
        rounds(12);
        assertThat(a.owned() + b.owned()).isEqualTo(UIDS.size());
        assertThat(b.owned()).isPositive();
    }

    @Test
    void aRenewalThatCompletesAfterOwningLapsedListsEverythingAgain() throws InterruptedException {
        Replica a = replica("a");
        rounds(4);
        int resumes = a.resumes;
        a.frozen = true;
        rounds(18);   // a late tick: 2.25 s after the last renewal, not yet fenced (2.5 s)
        a.frozen = false;
        a.slowWrite = Duration.ofMillis(400);   // the renewal completes past the 2.5 s of owning
        rounds(6);
        assertThat(a.resumes).as("events were skipped meanwhile: paused and resumed, so everything is listed again")
                .isEqualTo(resumes + 1);
        assertThat(a.owned()).isEqualTo(UIDS.size());
    }

    @Test
    void withAFixedCountASpareStandsByAndTakesTheSlotOfADeadReplica() throws InterruptedException {
        Replica a = replica("a", 2);
        Replica b = replica("b", 2);
        rounds(6);
        Replica spare = replica("spare", 2);
        rounds(6);
        assertThat(spare.owned()).isZero();
        assertThat(a.owned() + b.owned()).isEqualTo(UIDS.size());
        long bOwned = b.owned();
        b.cutOff = true;
        rounds(60);
        assertThat(spare.owned()).as("the spare took b's slot, and with it b's objects").isEqualTo(bOwned);
        assertThat(leases.byName.get("lease-slot-1").holder()).isEqualTo("spare");
    }

    @Test
    void aGracefulExitReleasesTheLeaseAtOnce() throws InterruptedException {
        Replica a = replica("a");
        Replica b = replica("b");
        rounds(6);
        b.stopped = true;   // the operator stopped; its handlers ended
        b.engine.ownership().moveTo(ShardView.NOBODY);
        b.engine.release(true);
        rounds(4);   // half a second: far less than the Lease
        assertThat(a.owned()).isEqualTo(UIDS.size());
    }
}
