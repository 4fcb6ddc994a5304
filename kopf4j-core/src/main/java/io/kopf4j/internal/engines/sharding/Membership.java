package io.kopf4j.internal.engines.sharding;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Which of the group's Leases are alive, timed by this replica's own clock, as client-go's leader
 * election does: a Lease is alive while it was seen written (a new resourceVersion) less than its
 * duration ago and is not released. A Lease seen for the first time counts as just renewed, so a
 * replica that starts waits out a dead member's full duration rather than trust anyone's clock.
 *
 * <pre>{@code
 * Membership membership = new Membership();
 * membership.observe(leases.list(), System.nanoTime());
 * List<MemberLease> alive = membership.alive(System.nanoTime(), Duration.ofSeconds(15));
 * }</pre>
 */
final class Membership {
    private record Seen(MemberLease lease, long sinceNanos) {
    }

    private final Map<String, Seen> seen = new HashMap<>();

    /** Takes in a listing of the Leases at {@code nowNanos}; Leases gone from it are forgotten. */
    public void observe(List<MemberLease> leases, long nowNanos) {
        Set<String> names = leases.stream().map(MemberLease::name).collect(Collectors.toSet());
        seen.keySet().retainAll(names);
        for (MemberLease lease : leases) {
            Seen before = seen.get(lease.name());
            boolean written = before == null || !before.lease.resourceVersion().equals(lease.resourceVersion());
            seen.put(lease.name(), new Seen(lease, written ? nowNanos : before.sinceNanos));
        }
    }

    /** The Leases alive at {@code nowNanos}; {@code fallback} for those that name no duration. */
    public List<MemberLease> alive(long nowNanos, Duration fallback) {
        return seen.values().stream().filter(s -> !s.lease.released() && nowNanos - s.sinceNanos < duration(s.lease, fallback))
                .map(Seen::lease).toList();
    }

    /** The Leases that have been dead (expired or released) for longer than {@code grace} on top of their duration. */
    public List<MemberLease> deadFor(long nowNanos, Duration fallback, Duration grace) {
        return seen.values().stream().filter(s -> nowNanos - s.sinceNanos
                        > (s.lease.released() ? 0 : duration(s.lease, fallback)) + grace.toNanos())
                .map(Seen::lease).toList();
    }

    /** Whether the Lease is free to take: released, or not written for its whole duration. */
    public boolean free(MemberLease lease, long nowNanos, Duration fallback) {
        return alive(nowNanos, fallback).stream().noneMatch(alive -> alive.name().equals(lease.name()));
    }

    private static long duration(MemberLease lease, Duration fallback) {
        return lease.durationSeconds() > 0 ? Duration.ofSeconds(lease.durationSeconds()).toNanos() : fallback.toNanos();
    }
}
