package io.kopf4j.internal.selection;

import java.util.Map;

/**
 * The server-side selection of one resource: the objects the API server lists and watches for the
 * operator, and the only ones its handlers serve. Either selector may be null, never both.
 *
 * <pre>{@code
 * Selection selection = new Selection(LabelSelector.parse("app=web"), null);
 * request.query("labelSelector", selection.labelQuery());
 * selection.matches(body);
 * }</pre>
 */
public record Selection(LabelSelector labels, FieldSelector fields) {
    public Selection {
        if (labels == null && fields == null) {
            throw new IllegalArgumentException("a selection needs a label or a field selector");
        }
    }

    /** Whether the object is inside the selection: what the API server would send of it. */
    public boolean matches(Map<String, Object> body) {
        return (labels == null || labels.matches(labelsOf(body))) && (fields == null || fields.matches(body));
    }

    /** Whether the selection can be checked on an object's metadata alone (its labels, name, namespace). */
    public boolean onMetadata() {
        return fields == null || fields.onMetadata();
    }

    /** The {@code labelSelector} parameter, or null. */
    public String labelQuery() {
        return labels == null ? null : labels.toString();
    }

    /** The {@code fieldSelector} parameter, or null. */
    public String fieldQuery() {
        return fields == null ? null : fields.toString();
    }

    /** As logs name it: {@code labels 'app=web', fields 'spec.nodeName=n1'}. */
    @Override
    public String toString() {
        return (labels == null ? "" : "labels '" + labels + "'") + (labels != null && fields != null ? ", " : "")
                + (fields == null ? "" : "fields '" + fields + "'");
    }

    @SuppressWarnings("unchecked")
    private static Map<String, String> labelsOf(Map<String, Object> body) {
        if (body.get("metadata") instanceof Map<?, ?> metadata && metadata.get("labels") instanceof Map<?, ?> labels) {
            return (Map<String, String>) labels;
        }
        return Map.of();
    }
}
