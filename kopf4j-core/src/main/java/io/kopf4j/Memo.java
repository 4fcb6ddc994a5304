package io.kopf4j;

import java.util.concurrent.ConcurrentHashMap;

/**
 * In-memory state kept between a handler's calls: one per object (a copy of the operator's memo
 * made when the object is first seen, kept until it is deleted), lost on restart.
 *
 * <pre>{@code
 * @On.Create("kopfexamples")
 * void create(Memo memo) { memo.put("connection", openConnection()); }
 * }</pre>
 */
public class Memo extends ConcurrentHashMap<String, Object> {
    private static final long serialVersionUID = 1L;

    /** An empty memo. */
    public Memo() {
    }

    /**
     * The per-object memo: a shallow copy, as Kopf's {@code copy.copy(memo)}. Override to share state.
     *
     * @return the copy
     */
    public Memo copyForObject() {
        Memo copy = new Memo();
        copy.putAll(this);
        return copy;
    }
}
