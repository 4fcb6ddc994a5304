package io.kopf4j.internal.engines.leadership;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderCallbacks;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderElectionConfigBuilder;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderElector;
import io.fabric8.kubernetes.client.extended.leaderelection.resourcelock.LeaseLock;
import io.kopf4j.OperatorSettings;
import io.kopf4j.internal.clients.ApiErrors;
import io.kopf4j.internal.reactor.orchestration.Orchestrator;
import io.kopf4j.internal.runtime.Engine;
import io.kopf4j.internal.runtime.Metrics;
import io.kopf4j.internal.runtime.OperatorThreads;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Leader election on a {@code coordination.k8s.io} Lease: of the replicas with the same Lease, the
 * one that holds it handles, and the others stand by with their handling paused
 * ({@link Orchestrator#pause}, as pauser {@value #PAUSER}) until it goes: when it stops renewing
 * (killed, cut off) they take over once the lease expires; when it stops gracefully it releases
 * the Lease, and a standby takes over at its next try. Losing the Lease pauses the handling at once
 * and the replica goes on trying to lead again: the process never exits for it (controller-runtime
 * exits; an operator's process has more to keep, such as its probes and metrics).
 *
 * <p>The Lease protocol is fabric8's {@link LeaderElector} with a {@link LeaseLock}, not a loop of
 * our own: it is a port of client-go's (the same record, the acquire-or-renew step with optimistic
 * concurrency, the jitter, the release on cancel), kept and tested with the client kopf4j already
 * uses. Its differences from client-go (the expiry judged by the local clock against the Lease's
 * renewTime; a renewal bounded by the request timeout, not by the renew deadline) are listed in
 * docs/leader-election.md. One elector runs one term: it ends when the Lease is lost, so a new one
 * is started after each loss.
 *
 * <pre>{@code
 * LeaderElection election = LeaderElection.start(client, settings.leadership, "default", reactor.orchestrator(), metrics, threads);
 * ...                      // the reactor runs; it handles only while this replica leads
 * election.release(true);  // at exit, once the handlers have finished: the Lease is released
 * }</pre>
 */
public final class LeaderElection implements Engine {
    /** Who pauses the orchestrator while this replica stands by. */
    public static final String PAUSER = "leadership";
    private static final Logger LOG = LoggerFactory.getLogger(LeaderElection.class);

    private final KubernetesClient client;
    private final OperatorSettings.Leadership settings;
    private final String namespace;
    private final String identity;
    private final Orchestrator orchestrator;
    private final Metrics metrics;
    private final Executor executor;
    private final AtomicBoolean leading = new AtomicBoolean();
    private final AtomicBoolean closed = new AtomicBoolean();
    private final AtomicBoolean released = new AtomicBoolean();
    private final AtomicReference<CompletableFuture<?>> term = new AtomicReference<>();

    private LeaderElection(KubernetesClient client, OperatorSettings.Leadership settings, String namespace,
                           Orchestrator orchestrator, Metrics metrics, OperatorThreads threads) {
        this.client = client;
        this.settings = settings;
        this.namespace = namespace;
        this.identity = Candidates.identity();
        this.orchestrator = orchestrator;
        this.metrics = metrics;
        // The elector's attempts block on API requests: each on a virtual thread of its own, tagged
        // with the operator, and not waited for at shutdown (the Lease is released after the handlers end).
        this.executor = task -> threads.startService("kopf4j-leadership", task);
    }

    /**
     * Pauses the handling and starts campaigning for the Lease; handling resumes once it is held.
     *
     * @param namespace the Lease's namespace (see {@link io.kopf4j.internal.runtime.PodEnvironment#leaseNamespace})
     */
    public static LeaderElection start(KubernetesClient client, OperatorSettings.Leadership settings, String namespace,
                                       Orchestrator orchestrator, Metrics metrics, OperatorThreads threads) {
        orchestrator.pause(PAUSER);
        LeaderElection election = new LeaderElection(client, settings, namespace, orchestrator, metrics, threads);
        metrics.leader(election.lease(), () -> election.leading.get() ? 1 : 0);
        LOG.info("Leader election on the Lease {} as {}: handling waits until this replica leads.", election.lease(),
                election.identity);
        election.campaign();
        return election;
    }

    /**
     * Stops campaigning and, if this replica leads, releases the Lease, before returning: call it
     * once the handlers have ended, so that the successor never handles beside them.
     */
    @Override
    public void release(boolean handlersEnded) {
        if (closed.compareAndSet(false, true)) {
            CompletableFuture<?> current = term.get();
            if (current != null) {
                current.cancel(true);   // fabric8 releases the Lease in this thread (releaseOnCancel)
            }
        }
    }

    /** One term: acquire, then renew until the Lease is lost; then the next term, after one retry period. */
    private void campaign() {
        if (closed.get()) {
            return;
        }
        LeaderElector elector = new LeaderElector(client, new LeaderElectionConfigBuilder()
                .withName(lease())
                .withLock(new LeaseLock(namespace, settings.leaseName, identity))
                .withLeaseDuration(settings.leaseDuration)
                .withRenewDeadline(settings.renewDeadline)
                .withRetryPeriod(settings.retryPeriod)
                .withReleaseOnCancel(true)
                .withLeaderCallbacks(new LeaderCallbacks(this::acquired, this::stopped, this::observed))
                .build(), executor);
        CompletableFuture<?> next = elector.start();
        term.set(next);
        if (closed.get()) {
            next.cancel(true);   // closed meanwhile: close() may have cancelled the previous term only
            return;
        }
        next.whenComplete((result, error) -> {
            if (error != null && !closed.get()) {
                LOG.warn("Leader election on the Lease {} failed; it starts again: {}{}", lease(), error.toString(),
                        ApiErrors.forbiddenHint(error));
            }
            CompletableFuture.delayedExecutor(settings.retryPeriod.toNanos(), TimeUnit.NANOSECONDS, executor)
                    .execute(this::campaign);
        });
    }

    private void acquired() {
        if (leading.compareAndSet(false, true)) {
            LOG.info("Acquired the leader Lease {} as {}: this replica handles now.", lease(), identity);
            metrics.leadershipChange(lease(), "acquired");
            orchestrator.resume(PAUSER);
        }
    }

    private void stopped() {
        if (leading.compareAndSet(true, false)) {
            orchestrator.pause(PAUSER);   // first: not one more event handled once the Lease may be another's
            if (released.get()) {
                LOG.info("Released the leader Lease {}: a standby can take over at once.", lease());
                metrics.leadershipChange(lease(), "released");
            } else {
                LOG.info("Lost the leader Lease {}: handling is paused until this replica leads again.", lease());
                metrics.leadershipChange(lease(), "lost");
            }
        }
    }

    /** A new holder (empty when released): standbys log who leads. */
    private void observed(String holder) {
        if (holder == null || holder.isEmpty()) {
            released.set(closed.get() && leading.get());
        } else if (!holder.equals(identity)) {
            LOG.info("The leader Lease {} is held by {}: this replica stands by.", lease(), holder);
        }
    }

    private String lease() {
        return namespace + "/" + settings.leaseName;
    }
}
