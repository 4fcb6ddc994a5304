package io.kopf4j.internal.engines.sharding;

/**
 * One member's Lease as the sharding engine reads it.
 *
 * <pre>{@code
 * MemberLease lease = new MemberLease("kopf4j-shard-g-a", "a", "a", "3f2a...", "812", 15);
 * }</pre>
 *
 * @param name the Lease's name
 * @param member the member it stands for (a replica's identity, or a slot), from its annotation
 * @param holder {@code spec.holderIdentity}: empty or null once released
 * @param view the view its holder has applied (the annotation), or null
 * @param resourceVersion for optimistic locking (renewals and take-overs fail if someone else wrote it
 *                        meanwhile); a new one means a renewal: expiry is timed by our own clock from
 *                        when we saw it change, never from the holder's {@code renewTime}, so clocks
 *                        need not agree
 * @param durationSeconds {@code spec.leaseDurationSeconds}
 */
record MemberLease(String name, String member, String holder, String view,
                          String resourceVersion, int durationSeconds) {
    public boolean released() {
        return holder == null || holder.isEmpty();
    }
}
