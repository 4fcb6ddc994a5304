package io.kopf4j.internal.engines.sharding;

import io.kopf4j.internal.structs.Sha256;
import java.util.List;
import java.util.stream.IntStream;

/**
 * One replica's view of its shard group: the live members, what objects are hashed over, and which
 * member this replica is. With {@code --shards auto} objects are hashed over the live members; with
 * a fixed count over all the slots, held or not ({@code slot-0} ... {@code slot-N-1}), so that an
 * object stays with its slot whoever holds it.
 *
 * <pre>{@code
 * ShardView view = ShardView.auto(List.of("a", "b", "c"), "b");
 * boolean mine = view.owns(uid);   // about a third of the uids
 * }</pre>
 *
 * @param members the live members, sorted (identities, or held slots)
 * @param candidates what objects are hashed over, sorted
 * @param me this replica's member name, or null if it is not a member (it owns nothing)
 */
record ShardView(List<String> members, List<String> candidates, String me) {
    /** Before the first agreement: nobody, so nothing is owned. */
    public static final ShardView NOBODY = new ShardView(List.of(), List.of(), null);

    public ShardView {
        members = members.stream().sorted().toList();
        candidates = candidates.stream().sorted().toList();
    }

    /** {@code --shards auto}: objects are split between the live members. */
    public static ShardView auto(List<String> members, String me) {
        return new ShardView(members, members, members.contains(me) ? me : null);
    }

    /** {@code --shards N}: objects are split between N slots; a slot not held leaves its objects waiting. */
    public static ShardView slots(int count, List<String> heldSlots, String mySlot) {
        return new ShardView(heldSlots, IntStream.range(0, count).mapToObj(ShardView::slot).toList(),
                heldSlots.contains(mySlot) ? mySlot : null);
    }

    /** The name of slot {@code index}. */
    public static String slot(int index) {
        return "slot-" + index;
    }

    public boolean owns(String key) {
        return me != null && me.equals(Rendezvous.owner(key, candidates));
    }

    /** What members publish on their leases to say that they have applied this view: a digest of the members. */
    public String id() {
        return Sha256.prefix(String.join("\n", members), 8);
    }

    /** The share of the objects this replica owns, as a fraction of the candidates: 1/3, or 0. */
    public String share() {
        return me == null ? "0" : "1/" + candidates.size();
    }
}
