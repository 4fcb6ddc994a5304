package io.kopf4j.intents;

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
}
