package io.kopf4j.internal.engines.children;

import io.kopf4j.Body;
import io.kopf4j.Patch;
import io.kopf4j.StatusConditions;
import io.kopf4j.kits.Readiness;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The parent's condition that says whether all its children are ready ({@code @Children(readyCondition)}),
 * each child judged by {@link Readiness} as last seen (the apply's response or its watch): True with
 * {@code ChildrenReady} when all are; False with {@code ChildrenNotReady} (or {@code ChildFailed}
 * when one will not become ready by itself) and a message that names the first few that are not,
 * e.g. {@code "2/3 ready; Deployment 'shop/web': Available: 0/1"}; False with {@code ApplyFailed}
 * when the children could not be applied. Written through the parent's patch, so that it goes in
 * the same PATCH as Kopf's own state, and only when it changes.
 *
 * <pre>{@code
 * ReadyCondition.children("Ready", body, patch, List.of(Map.entry(child, live)));
 * }</pre>
 */
final class ReadyCondition {
    /** How many children not ready the message names; the rest are counted. */
    private static final int NAMED = 3;

    private ReadyCondition() {
    }

    /**
     * Sets the condition from the children's readiness.
     *
     * @param children each child as applied, with its body as last seen (null if not seen)
     */
    static void children(String type, Body parent, Patch patch, List<Map.Entry<DesiredChildren.Child, Map<String, Object>>> children) {
        int ready = 0;
        boolean failed = false;
        List<String> waiting = new ArrayList<>();
        for (Map.Entry<DesiredChildren.Child, Map<String, Object>> child : children) {
            Readiness readiness = Readiness.of(child.getValue());
            if (readiness.ready()) {
                ready++;
            } else {
                failed |= readiness.failed();
                waiting.add(child.getKey() + ": " + readiness.message());
            }
        }
        String counted = ready + "/" + children.size() + " ready";
        if (waiting.isEmpty()) {
            StatusConditions.of(parent, patch).set(type, true, "ChildrenReady", counted);
            return;
        }
        String named = String.join("; ", waiting.subList(0, Math.min(NAMED, waiting.size())))
                + (waiting.size() > NAMED ? "; and " + (waiting.size() - NAMED) + " more" : "");
        StatusConditions.of(parent, patch).set(type, false, failed ? "ChildFailed" : "ChildrenNotReady",
                counted + "; " + named);
    }

    /** Sets the condition false: the children could not be applied (or the handler's result is invalid). */
    static void failed(String type, Body parent, Patch patch, String reason, String message) {
        StatusConditions.of(parent, patch).set(type, false, reason, message);
    }
}
