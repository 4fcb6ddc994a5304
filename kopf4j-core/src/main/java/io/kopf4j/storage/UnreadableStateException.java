package io.kopf4j.storage;

/**
 * State on an object that a storage cannot read: an annotation or field that holds no JSON object
 * (edited by hand, cut short, written by something else). The operator takes the state as absent,
 * with a warning naming the object and this message, so that one object's garbage never blocks its
 * handling or its deletion: Kopf's rules for an object without that state apply (no diff-base: the
 * object is handled as if seen for the first time; no progress: the handler runs as if it never did).
 * Custom storages throw it too, for the same treatment and a message that names where they looked.
 *
 * <pre>{@code
 * try {
 *     return Json.parseMap(encoded);
 * } catch (IllegalArgumentException e) {
 *     throw new UnreadableStateException("annotation 'example.com/state'", e.getMessage(), e);
 * }
 * }</pre>
 */
public final class UnreadableStateException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /**
     * The state at this place cannot be read, for this reason.
     *
     * @param where what holds the state, e.g. {@code annotation 'kopf.zalando.org/create'}
     * @param reason why it cannot be read, e.g. the parser's message
     * @param cause the parser's exception, or null
     */
    public UnreadableStateException(String where, String reason, Throwable cause) {
        super(where + " cannot be read (" + reason + ")", cause);
    }
}
