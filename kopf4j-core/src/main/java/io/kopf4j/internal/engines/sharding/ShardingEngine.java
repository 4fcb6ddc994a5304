package io.kopf4j.internal.engines.sharding;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.kopf4j.OperatorSettings;
import io.kopf4j.internal.clients.ApiErrors;
import io.kopf4j.internal.reactor.orchestration.Orchestrator;
import io.kopf4j.internal.runtime.Engine;
import io.kopf4j.internal.runtime.Metrics;
import io.kopf4j.internal.runtime.PodEnvironment;
import io.kopf4j.internal.structs.Sha256;
import java.time.Duration;
import java.util.Collection;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.LongSupplier;
import java.util.function.Predicate;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sharding: several replicas of one operator split the objects between them, each holding a Lease
 * of its shard group. Every tick (the renew period; four times as often during a hand-over) a
 * replica renews its Lease, reads the group's Leases, and runs the view protocol:
 *
 * <ol>
 * <li>the live members change: pause the handling (the orchestrator's pause, which also stops
 *     daemons and timers) and own only the objects owned both before and after;</li>
 * <li>once the objects this replica loses are put down (no event of theirs in hand), publish the
 *     new view's id on its Lease;</li>
 * <li>once every live member has published it, own the new view's objects and resume (which lists
 *     every resource again, so the objects gained are seen).</li>
 * </ol>
 *
 * So an object is never handled by two replicas at once: its new owner takes it only after its old
 * owner has published that it put it down, or after the old owner's Lease expired (by the new
 * owner's own clock), and a replica whose Lease could not be renewed in time stops handling before
 * the others can count it expired. See docs/sharding.md.
 *
 * <pre>{@code
 * Ownership ownership = new Ownership(System::nanoTime);   // what processing asks at every event
 * Reactor reactor = new Reactor(..., ownership);
 * ShardingEngine sharding = ShardingEngine.start(client, settings.sharding, "my-operator",
 *         PodEnvironment.leaseNamespace(settings.sharding.namespace, namespaces), ownership,
 *         reactor.orchestrator(), metrics);   // the handling stays paused until the first view is agreed
 * ...
 * sharding.release(true);                             // at exit: release the Lease at once
 * }</pre>
 */
public final class ShardingEngine implements Engine {
    private static final Logger LOG = LoggerFactory.getLogger(ShardingEngine.class);
    /** Whom the orchestrator's pause is held by. */
    static final String PAUSER = "sharding";

    /** What the engine pauses and resumes: the orchestrator, or a test's fake. */
    public interface Handling {
        void pause();

        void resume();

        /** Whether no object matching is processing an event. */
        boolean idle(Predicate<String> keys);

        static Handling of(Orchestrator orchestrator) {
            return new Handling() {
                @Override
                public void pause() {
                    orchestrator.pause(PAUSER);
                }

                @Override
                public void resume() {
                    orchestrator.resume(PAUSER);
                }

                @Override
                public boolean idle(Predicate<String> keys) {
                    return orchestrator.idle(keys);
                }
            };
        }
    }

    private final OperatorSettings.Sharding settings;
    private final LeaseStore leases;
    private final String identity;
    private final Handling handling;
    private final Metrics metrics;
    private final LongSupplier clock;
    private final Membership membership = new Membership();
    private final Ownership ownership;
    private MemberLease mine;
    private long renewedAt;
    /** The view this replica has applied (put down what it loses), to be written on its Lease; null: not yet. */
    private String published;
    private boolean paused;
    private boolean standingBy;
    private volatile int members;
    private volatile boolean closed;
    private Thread loop;

    ShardingEngine(OperatorSettings.Sharding settings, LeaseStore leases, String identity, Handling handling,
                   Metrics metrics, Ownership ownership, LongSupplier clock) {
        this.settings = settings;
        this.leases = leases;
        this.identity = identity;
        this.handling = handling;
        this.metrics = metrics;
        this.clock = clock;
        this.ownership = ownership;
        metrics.shardMembers(() -> members);
    }

    /**
     * Pauses the handling at once (nothing is owned before the first view is agreed) and starts the
     * engine's loop; call before the reactor starts watching.
     */
    public static ShardingEngine start(KubernetesClient client, OperatorSettings.Sharding settings, String group,
                                       String namespace, Ownership ownership, Orchestrator orchestrator,
                                       Metrics metrics) {
        String identity = settings.identity != null ? settings.identity : defaultIdentity();
        ShardingEngine engine = new ShardingEngine(settings, new KubernetesLeases(client, namespace, group,
                settings.leaseDuration), identity, Handling.of(orchestrator), metrics, ownership, System::nanoTime);
        engine.pause();
        LOG.info("Shards: joining the group '{}' in the namespace '{}' as '{}' ({}).", group, namespace, identity,
                settings.shards == OperatorSettings.Sharding.AUTO ? "auto" : settings.shards + " slots");
        // A platform thread: the Lease must be renewed on time even while handlers keep every carrier
        // thread of the virtual threads busy (the operator's own threads would then starve it).
        engine.loop = Thread.ofPlatform().daemon().name("kopf4j-sharding").start(engine::run);
        return engine;
    }

    /** What processing asks at every event. */
    public Ownership ownership() {
        return ownership;
    }

    /**
     * Stops the loop; once the handlers ended, gives up the Lease at once so that the others take
     * over now rather than after its expiry (only when every handler of this replica has ended).
     */
    @Override
    public void release(boolean handlersEnded) {
        closed = true;
        if (loop != null) {
            loop.interrupt();
            try {
                loop.join(Duration.ofSeconds(5));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        if (handlersEnded && mine != null) {
            try {
                if (auto()) {
                    leases.delete(mine);
                } else {
                    leases.hold(mine, "", null);
                }
                LOG.info("Shards: released the Lease {}.", mine.name());
            } catch (LeaseStore.Lost | RuntimeException e) {
                LOG.warn("Shards: could not release the Lease {} ({}); it expires in {} s.", mine.name(), e.getMessage(),
                        settings.leaseDuration.toSeconds());
            }
        }
    }

    private void run() {
        while (!closed) {
            try {
                tick();
            } catch (InterruptedException e) {
                return;
            } catch (RuntimeException e) {
                LOG.warn("Shards: the group's Leases could not be read or written: {}{}", e.getMessage(), ApiErrors.forbiddenHint(e));
                fenceIfStale(clock.getAsLong());
            }
            try {
                Thread.sleep(transitioning() ? settings.renewPeriod.dividedBy(4) : settings.renewPeriod);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    /** One round: hold the Lease, see who is alive, and move the view protocol on. */
    void tick() throws InterruptedException {
        long now = clock.getAsLong();
        fenceIfStale(now);
        List<MemberLease> all = leases.list();
        membership.observe(all, now);
        holdLease(all, now);
        if (auto()) {
            forgetTheLongDead(now);
        }
        String myName = mine == null ? null : mine.name();
        List<MemberLease> others = membership.alive(now, settings.leaseDuration).stream()
                .filter(lease -> !lease.name().equals(myName)).toList();
        List<String> names = Stream.concat(others.stream().map(MemberLease::member),
                Stream.ofNullable(mine).map(MemberLease::member)).distinct().toList();
        String me = mine == null ? null : mine.member();
        ShardView target = auto() ? ShardView.auto(names, me) : ShardView.slots(settings.shards, names, me);
        if (!target.equals(ownership.target())) {
            pause();
            ownership.moveTo(target);
            published = null;
            LOG.debug("Shards: moving to the view {} of {}; waiting for the objects handed over to be put down.",
                    target.id(), target.members());
        }
        if (published == null && handling.idle(ownership::losing)) {
            published = target.id();
        }
        boolean agreed = target.me() == null
                || (mine != null && target.id().equals(mine.view())
                    && others.stream().allMatch(lease -> target.id().equals(lease.view())));
        if (agreed && !target.equals(ownership.agreed())) {
            ownership.agree();
            members = target.members().size();
            metrics.shardView();
            LOG.info("Shards: {} members ({}){}; this replica owns about {} of the objects.", target.members().size(),
                    String.join(", ", target.members()), auto() ? "" : " of " + settings.shards + " slots",
                    target.share());
        }
        if (agreed && target.me() != null && paused) {
            paused = false;
            handling.resume();
        }
    }

    /** Renews this replica's Lease, publishing its view, or claims one if it has none. */
    private void holdLease(List<MemberLease> all, long now) {
        if (mine != null) {
            try {
                mine = leases.hold(mine, identity, published);
                renewed(now);
            } catch (LeaseStore.Lost e) {
                LOG.warn("Shards: this replica lost its Lease: {}; it handles nothing until it holds one again.", e.getMessage());
                dropOut();
            }
            return;
        }
        List<String> wanted = auto() ? List.of(identity)
                : IntStream.range(0, settings.shards).mapToObj(ShardView::slot).toList();
        for (String member : wanted) {
            MemberLease existing = all.stream().filter(lease -> lease.member().equals(member)).findFirst().orElse(null);
            try {
                if (existing == null) {
                    mine = leases.create(member, identity, published);
                } else if (identity.equals(existing.holder()) || membership.free(existing, now, settings.leaseDuration)) {
                    // Our own Lease, after a failed renewal: nobody else writes it, and we own nothing meanwhile.
                    mine = leases.hold(existing, identity, published);
                } else {
                    continue;
                }
                renewed(now);
                standingBy = false;
                LOG.info("Shards: this replica holds the Lease {}.", mine.name());
                return;
            } catch (LeaseStore.Lost e) {
                LOG.debug("Shards: {}", e.getMessage());
            }
        }
        if (!standingBy) {
            standingBy = true;
            LOG.info("Shards: every one of the {} slot(s) is held; this replica stands by.", wanted.size());
        }
    }

    private void renewed(long now) {
        renewedAt = now;
        if (clock.getAsLong() - ownership.validUntil() >= 0 && ownership.agreed().me() != null) {
            // Owning lapsed meanwhile (a renewal came too late): events were skipped, and the others may
            // have counted this replica out and taken its objects. It joins again like a new member.
            LOG.warn("Shards: this replica renewed its Lease {} too late; it joins the group again.", mine.name());
            pause();
            ownership.reset();
            published = null;
        }
        ownership.validUntil(now + fence());
    }

    private long fence() {
        return settings.leaseDuration.minus(settings.renewPeriod).toNanos();
    }

    /**
     * A Lease not renewed for its duration less one renew period counts as lost here, before the
     * others can count it expired (they time it from when they saw it last written, after us).
     */
    private void fenceIfStale(long now) {
        if (mine != null && now - renewedAt >= fence()) {
            LOG.warn("Shards: this replica could not renew its Lease {} in time; it handles nothing until it holds one"
                    + " again.", mine.name());
            dropOut();
        }
    }

    private void dropOut() {
        mine = null;
        pause();
        ownership.reset();
        published = null;
    }

    /** The Leases of members that died without releasing them: deleted once long expired (auto only: slots are reused). */
    private void forgetTheLongDead(long now) {
        for (MemberLease dead : membership.deadFor(now, settings.leaseDuration, settings.leaseDuration)) {
            if (mine == null || !dead.name().equals(mine.name())) {
                try {
                    leases.delete(dead);
                } catch (RuntimeException e) {
                    LOG.debug("Shards: could not delete the expired Lease {}: {}", dead.name(), e.getMessage());
                }
            }
        }
    }

    private void pause() {
        if (!paused) {
            paused = true;
            handling.pause();
        }
    }

    /** Paused as a member: a hand-over is under way (a replica standing by is paused too, but waits for nothing). */
    private boolean transitioning() {
        return paused && mine != null;
    }

    private boolean auto() {
        return settings.shards == OperatorSettings.Sharding.AUTO;
    }

    /**
     * The group when none is set: derived from the finalizer and the handlers' resources, so that
     * the replicas of one operator meet and two different operators do not.
     */
    public static String defaultGroup(String finalizer, Collection<?> resources) {
        String text = finalizer + "\n" + resources.stream().map(Objects::toString).sorted().toList();
        return Sha256.prefix(text, 5);
    }

    /** The host name (the pod's name) and a random suffix: a restarted replica is a new member. */
    private static String defaultIdentity() {
        return PodEnvironment.hostname() + "-" + HexFormat.of().toHexDigits(ThreadLocalRandom.current().nextInt()).substring(0, 6);
    }
}
