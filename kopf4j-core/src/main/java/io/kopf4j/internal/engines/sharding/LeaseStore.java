package io.kopf4j.internal.engines.sharding;

import java.util.List;

/**
 * The Leases of one shard group, behind an interface so that the view protocol is tested with a
 * fake; {@link KubernetesLeases} keeps them in the cluster.
 *
 * <pre>{@code
 * LeaseStore leases = new KubernetesLeases(client, "operators", "my-operator", Duration.ofSeconds(15));
 * MemberLease mine = leases.create("replica-a", "replica-a", null);
 * }</pre>
 */
interface LeaseStore {
    /** Someone else wrote the Lease (or deleted it, or holds it already): this replica does not hold it. */
    final class Lost extends Exception {
        public Lost(String message) {
            super(message);
        }
    }

    /** Every Lease of the group. */
    List<MemberLease> list();

    /** A new Lease for {@code member}, held by {@code holder}; {@link Lost} if it exists. */
    MemberLease create(String member, String holder, String view) throws Lost;

    /**
     * Writes the Lease as held by {@code holder} now (empty: released), with the view published,
     * if nobody wrote it since it was read: a renewal, a take-over of an expired slot, a release.
     */
    MemberLease hold(MemberLease lease, String holder, String view) throws Lost;

    /** Deletes the Lease (a graceful exit, or the leftover of a member that died long ago). */
    void delete(MemberLease lease);
}
