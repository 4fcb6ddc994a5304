package io.kopf4j.internal.engines.admission;

import io.kopf4j.Memo;
import io.kopf4j.Resource;
import java.util.Map;

/**
 * Where admission handlers get the object's memo from (Kopf's {@code MemoGetter}): the memo that
 * the object's other handlers share, kept by the reactor; a throwaway copy of the operator's memo
 * for objects not yet created.
 *
 * <pre>{@code
 * MemoRecall memos = (resource, body, ephemeral) -> operatorMemo.copyForObject();
 * }</pre>
 */
@FunctionalInterface
public interface MemoRecall {
    /**
     * The object's memo.
     *
     * @param resource the object's resource
     * @param body the object of the admission request
     * @param ephemeral not to be remembered: the object is being created and may never be
     * @return the memo
     */
    Memo recall(Resource resource, Map<String, Object> body, boolean ephemeral);
}
