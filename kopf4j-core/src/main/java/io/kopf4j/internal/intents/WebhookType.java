package io.kopf4j.internal.intents;

import io.kopf4j.OperatorSettings;
import java.util.List;

/**
 * The two kinds of admission webhooks (Kopf's {@code WebhookType}), as Kopf's log lines write them:
 * {@code "Reconfiguring the validating webhook ..."}.
 */
public enum WebhookType {
    VALIDATING("validating", "validatingwebhookconfigurations", "ValidatingWebhookConfiguration"),
    MUTATING("mutating", "mutatingwebhookconfigurations", "MutatingWebhookConfiguration");

    private final String written;
    private final String plural;
    private final String kind;

    WebhookType(String written, String plural, String kind) {
        this.written = written;
        this.plural = plural;
        this.kind = kind;
    }

    /** {@return Kopf's value: {@code validating} or {@code mutating}} */
    public String written() {
        return written;
    }

    /** {@return the plural of its configuration resource in {@code admissionregistration.k8s.io/v1}} */
    public String plural() {
        return plural;
    }

    /** {@return the kind of its configuration resource} */
    public String kind() {
        return kind;
    }

    /**
     * The configurations the operator keeps, as Kopf keeps them: both kinds whenever a server runs and
     * {@code settings.admission.managed} names them, with or without handlers of each kind (an emptied
     * configuration is how a kind's handlers that are gone stop being called). The one source for the
     * admission engine that keeps them and for the RBAC that lets it.
     *
     * @param settings the operator's settings
     * @param registry its handlers: with admission handlers or conversions, a server runs even if none
     *        is set yet (kopf4j chooses one at the start)
     * @return both kinds, or none when not managed
     */
    public static List<WebhookType> managed(OperatorSettings settings, HandlerRegistry registry) {
        boolean serving = settings.admission.server != null || registry.needsWebhookServer();
        return !serving || settings.admission.managed == null ? List.of() : List.of(values());
    }
}
