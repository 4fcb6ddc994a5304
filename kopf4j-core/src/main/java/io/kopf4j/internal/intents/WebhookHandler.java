package io.kopf4j.internal.intents;

import io.kopf4j.HandlerDescription.Option;
import io.kopf4j.HandlerFn;
import java.util.List;

/**
 * A validating or mutating admission handler ({@code @On.Validate}, {@code @On.Mutate}; Kopf's
 * {@code WebhookHandler}): called once per admission request that reaches it, never retried; its
 * options shape its entry in the managed webhook configurations.
 *
 * @param id the handler id: the last path segment of its webhook's URL, and its webhook's name
 * @param type validating or mutating
 * @param param the value passed as the handler's {@code param}, or null
 * @param filters which objects it is for (labels also become its webhook's {@code objectSelector})
 * @param selector the resource it is for
 * @param function the bound handler
 * @param origin where it was declared, for messages
 * @param options its {@code operations} (none: all, {@code *}), {@code subresource} ({@code status},
 *                {@code scale}, {@code *} for any; none: the main resource), {@code persistent} (its
 *                webhook stays in the managed configurations when the operator exits),
 *                {@code sideEffects} ({@code NoneOnDryRun}, not {@code None}) and
 *                {@code ignoreFailures} ({@code failurePolicy: Ignore})
 */
public record WebhookHandler(String id, WebhookType type, Object param, Filters filters, ResourceSelector selector,
                             HandlerFn function, String origin, KindOptions options) implements ExecutableHandler {
    /** {@return the operations its webhook is registered for, or null for all} */
    public List<String> operations() {
        return options.get(Option.Operations.class).map(Option.Operations::names).orElse(null);
    }

    /** {@return the subresource it is for ({@code *} for any), or null for the main resource} */
    public String subresource() {
        return options.get(Option.Subresource.class).map(Option.Subresource::name).orElse(null);
    }

    /** Kopf's log lines name it {@code Webhook 'id'}. */
    @Override
    public String title() {
        return "Webhook '" + id + "'";
    }
}
