package io.kopf4j.internal.intents;

import io.kopf4j.Body;
import io.kopf4j.Diff;
import io.kopf4j.Memo;
import io.kopf4j.Patch;
import io.kopf4j.Reason;
import io.kopf4j.Resource;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;

/**
 * One admission request, as admission handlers see it (Kopf's {@code WebhookCause}): the object
 * (the new one, or the old one when there is no new one: deletions), both states and their diff,
 * and the request's own data. Its patch becomes the response's JSON Patch; handlers append to its
 * warnings.
 *
 * @param resource the object's resource, as served
 * @param raw the object's body as plain JSON maps
 * @param body the read-only view of {@code raw} given to handlers
 * @param patch the changes a mutating handler asks for
 * @param logger the object's local logger: admission lines never become Kubernetes Events
 * @param memo the object's memo (a throwaway one for objects being created)
 * @param webhook the handler id the request's URL names, or null for all matching handlers
 * @param dryrun the API server will not store the result
 * @param operation {@code CREATE}, {@code UPDATE}, {@code DELETE}, {@code CONNECT}, or null
 * @param subresource {@code status}, {@code scale}, ..., or null for the main resource
 * @param userinfo who makes the request: {@code username}, {@code uid}, {@code groups}
 * @param headers the HTTP request's headers
 * @param sslpeer the API server's client certificate, or empty
 * @param warnings where handlers add warnings for the user (mutable, shared by the request's handlers)
 * @param old the object before the operation, or null (creations)
 * @param current the object after the operation, or null (deletions)
 */
public record WebhookCause(Resource resource, Map<String, Object> raw, Body body, Patch patch, Logger logger, Memo memo,
                           String webhook, boolean dryrun, String operation,
                           String subresource, Map<String, Object> userinfo, Map<String, String> headers,
                           Map<String, Object> sslpeer, List<String> warnings, Map<String, Object> old,
                           Map<String, Object> current) implements Cause {
    /** Admission has no reason of Kopf's change detection: the operation says what happens. */
    @Override
    public Reason reason() {
        return null;
    }

    /** The diff between the old and the new object (Kopf's {@code diffs.diff(old, new)}). */
    @Override
    public Diff diff() {
        return Diff.between(old, current);
    }
}
