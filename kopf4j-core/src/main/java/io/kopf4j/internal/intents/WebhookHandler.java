package io.kopf4j.internal.intents;

import io.kopf4j.HandlerFn;
import java.util.List;

/**
 * A validating or mutating admission handler ({@code @On.Validate}, {@code @On.Mutate}; Kopf's
 * {@code WebhookHandler}): called once per admission request that reaches it, never retried; its
 * options shape its entry in the managed webhook configurations.
 *
 * @param id the handler id: the last path segment of its webhook's URL, and its webhook's name
 * @param type validating or mutating
 * @param operations the operations its webhook is registered for ({@code CREATE}, {@code UPDATE},
 *                   {@code DELETE}, {@code CONNECT}), or null for all ({@code *})
 * @param subresource the subresource it is for ({@code status}, {@code scale}, {@code *} for any), or
 *                    null for the main resource
 * @param persistent its webhook stays in the managed configurations when the operator exits
 * @param sideEffects the handler has side effects: its webhook says {@code NoneOnDryRun}, not {@code None}
 * @param ignoreFailures the API server lets the request through when the webhook fails
 *                       ({@code failurePolicy: Ignore})
 * @param param the value passed as the handler's {@code param}, or null
 * @param filters which objects it is for (labels also become its webhook's {@code objectSelector})
 * @param selector the resource it is for
 * @param function the bound handler
 * @param origin where it was declared, for messages
 */
public record WebhookHandler(String id, WebhookType type, List<String> operations, String subresource,
                             boolean persistent, boolean sideEffects, boolean ignoreFailures, Object param,
                             Filters filters, ResourceSelector selector, HandlerFn function, String origin)
        implements ExecutableHandler {
    public WebhookHandler {
        operations = operations == null ? null : List.copyOf(operations);
    }

    /** Kopf's log lines name it {@code Webhook 'id'}. */
    @Override
    public String title() {
        return "Webhook '" + id + "'";
    }
}
