package io.kopf4j.internal.engines.peering;

import io.kopf4j.OperatorSettings;
import io.kopf4j.internal.runtime.Metrics;
import io.kopf4j.internal.runtime.OperatorThreads;
import io.kopf4j.internal.watching.ResourceWatcher;
import io.kopf4j.internal.watching.WatchEvent;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * This operator in one peering object, as Kopf's pair of tasks per peering object: the observer
 * (a watch of the object; every change re-evaluates the peers: Kopf's {@code process_peering_event})
 * and the keep-alive (Kopf's {@code keepalive}: the own record, renewed slightly before it expires,
 * removed at exit). Its verdict, whether conflicting peers are around, goes to {@code verdicts}.
 *
 * <pre>{@code
 * Neighbourhood neighbourhood = new Neighbourhood(object, "alice@laptop", settings, threads, metrics,
 *         conflicted -> LOG.info("conflicts: {}", conflicted));
 * neighbourhood.start();
 * neighbourhood.awaitEvaluated(Duration.ofSeconds(10));
 * neighbourhood.stop();
 * neighbourhood.leave();
 * }</pre>
 */
final class Neighbourhood {
    private static final Logger LOG = LoggerFactory.getLogger(Neighbourhood.class);
    /** Queued after the initial listing: once it is processed, the peers present at the start are evaluated. */
    private static final WatchEvent LISTED = new WatchEvent("LISTED", Map.of());

    private final PeeringObject object;
    private final String identity;
    private final OperatorSettings.Peering settings;
    private final OperatorThreads threads;
    private final Consumer<Boolean> verdicts;
    private final ResourceWatcher watcher;
    private final BlockingQueue<WatchEvent> events = new LinkedBlockingQueue<>();
    private final CountDownLatch evaluated = new CountDownLatch(1);
    private final List<Thread> loops = new ArrayList<>();
    private volatile boolean conflicts;
    private volatile boolean stopped;

    /**
     * @param verdicts told true when this operator must pause for this object's peers, false when it may resume
     */
    public Neighbourhood(PeeringObject object, String identity, OperatorSettings settings, OperatorThreads threads,
                         Metrics metrics, Consumer<Boolean> verdicts) {
        this.object = object;
        this.identity = identity;
        this.settings = settings.peering;
        this.threads = threads;
        this.verdicts = verdicts;
        // Kopf pauses a mandatory peering from the start, until the object's peers say otherwise.
        this.conflicts = settings.peering.mandatory;
        this.watcher = new ResourceWatcher(object.client(), object.resource(), object.namespace(), this::arrived,
                settings, metrics);
    }

    /** Whether this object's peers make this operator pause. */
    public boolean conflicts() {
        return conflicts;
    }

    /** Starts watching the object and keeping this operator's record alive in it. */
    public void start() {
        String what = object.describe();
        loops.add(threads.start("kopf4j-peering-watch-" + what, watcher));
        loops.add(threads.start("kopf4j-peering-observer-" + what, this::observe));
        loops.add(threads.start("kopf4j-peering-keepalive-" + what, this::keepAlive));
    }

    /**
     * Waits until the peers present at the start are evaluated (the object listed and its
     * record, if any, processed), so that the operator starts watching only if it may.
     *
     * @return false if that did not happen in time
     */
    public boolean awaitEvaluated(Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        if (!watcher.listed().await(timeout.toNanos(), TimeUnit.NANOSECONDS)) {
            return false;
        }
        events.add(LISTED);
        return evaluated.await(deadline - System.nanoTime(), TimeUnit.NANOSECONDS);
    }

    /** Stops watching and keeping alive; the record stays until {@link #leave()}. */
    public void stop() {
        stopped = true;
        watcher.stop();
        loops.forEach(Thread::interrupt);
    }

    /** Removes this operator's record, as Kopf does when its keep-alive ends; failures are only logged. */
    public void leave() {
        try {
            object.touch(Peer.leaving(identity, settings.priority), settings.stealth);
        } catch (RuntimeException e) {
            LOG.error("Couldn't remove self from the peering. Ignoring.", e);
        }
    }

    private void arrived(WatchEvent event) {
        if (object.name().equals(event.name())) {   // Kopf: other peering objects are not ours to worry.
            events.add(event);
        }
    }

    /**
     * Kopf's worker of the peering object: the newest state is evaluated; then, while peers that
     * make this operator pause are alive, it waits for the first of them to expire, unless a new
     * change comes first, and then touches its own record to be evaluated again.
     */
    private void observe() {
        try {
            WatchEvent next = events.take();
            Instant wakeup = null;
            while (!stopped) {
                WatchEvent latest = newest(next);
                if (latest != null) {
                    try {
                        wakeup = evaluate(latest.object());
                    } catch (RuntimeException e) {   // a record no operator writes: the next change is evaluated anew
                        LOG.error("The peers in {} cannot be evaluated: {}", object.describe(), e.toString());
                    }
                }
                long sleep = wakeup == null ? -1 : Duration.between(Instant.now(), wakeup).toNanos();
                if (wakeup == null) {
                    next = events.take();
                } else if (sleep <= 0 || (next = events.poll(sleep, TimeUnit.NANOSECONDS)) == null) {
                    wakeup = null;
                    touch();   // its echo re-evaluates the peers
                    next = events.take();
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** The newest event of those queued (Kopf's batching), counting the start's evaluation done when it passes. */
    private WatchEvent newest(WatchEvent first) {
        List<WatchEvent> queued = new ArrayList<>();
        queued.add(first);
        events.drainTo(queued);
        WatchEvent latest = null;
        boolean listed = false;
        for (WatchEvent event : queued) {
            if (event == LISTED) {
                listed = true;
            } else {
                latest = event;
            }
        }
        if (listed && latest == null) {
            evaluated.countDown();
        } else if (listed) {
            events.add(LISTED);   // after this evaluation
        }
        return latest;
    }

    /**
     * Kopf's {@code process_peering_event}: dead records are removed; a live peer of a higher
     * priority pauses this operator; peers of the same priority pause all of them, with a warning;
     * without either, a paused operator resumes.
     *
     * @return when the first of the peers that pause this operator expires, or null if none does
     */
    private Instant evaluate(Map<String, Object> body) {
        Instant now = Instant.now();
        List<Peer> peers = new ArrayList<>();
        if (body.get("status") instanceof Map<?, ?> status) {
            status.forEach((id, entry) -> peers.add(Peer.parse(String.valueOf(id),
                    entry instanceof Map<?, ?> map ? map : Map.of(), now)));
        }
        List<Peer> dead = peers.stream().filter(peer -> peer.isDead(now)).toList();
        List<Peer> live = peers.stream().filter(peer -> !peer.isDead(now) && !peer.identity().equals(identity)).toList();
        List<Peer> higher = live.stream().filter(peer -> peer.priority() > settings.priority).toList();
        List<Peer> same = live.stream().filter(peer -> peer.priority() == settings.priority).toList();

        if (!dead.isEmpty()) {
            try {
                object.clean(dead);
            } catch (RuntimeException e) {
                LOG.error("Couldn't remove the dead peers from {}: {}", object.describe(), e.getMessage());
            }
        }

        if (!higher.isEmpty()) {
            if (!conflicts) {
                LOG.info("Pausing operations in favour of {}.", repr(higher));
                decide(true);
            }
        } else if (!same.isEmpty()) {
            LOG.warn("Possibly conflicting operators with the same priority: {}.", repr(same));
            if (!conflicts) {
                LOG.warn("Pausing all operators, including self: {}", repr(peers));
                decide(true);
            }
        } else if (conflicts) {
            LOG.info("Resuming operations after the pause. Conflicting operators with the same priority are gone.");
            decide(false);
        }
        return live.stream().filter(peer -> peer.priority() >= settings.priority)
                .map(Peer::deadline).min(Instant::compareTo).orElse(null);
    }

    private void decide(boolean conflicted) {
        conflicts = conflicted;
        verdicts.accept(conflicted);
    }

    /**
     * Kopf's keep-alive: the own record every {@code lifetime - 5..10 s} (at least every second,
     * never later than the lifetime), with jitter to spread the operators' writes over time.
     */
    private void keepAlive() {
        long lifetime = settings.lifetime.toSeconds();
        while (!stopped) {
            touch();
            long duration = Math.min(lifetime, Math.max(1, lifetime - ThreadLocalRandom.current().nextInt(5, 11)));
            try {
                Thread.sleep(Duration.ofSeconds(Math.max(1, duration)));
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    private void touch() {
        try {
            object.touch(new Peer(identity, settings.priority, settings.lifetime, Instant.now()), settings.stealth);
        } catch (RuntimeException e) {
            if (!stopped) {
                LOG.error("Keep-alive in {} failed: {}", object.describe(), e.getMessage());
            }
        }
    }

    /** A Python list's repr of the peers' reprs, as in Kopf's log lines. */
    private static String repr(List<Peer> peers) {
        return peers.toString();
    }
}
