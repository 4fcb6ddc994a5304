package io.kopf4j.kits.webhooks;

/**
 * Whether a webhook server asks clients (the API servers) for certificates: Python's
 * {@code ssl.CERT_NONE}, {@code CERT_OPTIONAL} and {@code CERT_REQUIRED}, as Kopf's
 * {@code verify_mode}.
 *
 * <pre>{@code
 * new WebhookServer().port(9443).verifyCafile(Path.of("/certs/apiserver-ca.crt")).verifyMode(VerifyMode.REQUIRED);
 * }</pre>
 */
public enum VerifyMode {
    /** Not asked for. */
    NONE,
    /** Asked for, verified when presented; a client without one is served too. */
    OPTIONAL,
    /** Required and verified; a client without one is refused in the handshake. */
    REQUIRED
}
