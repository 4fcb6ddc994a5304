package io.kopf4j.kits.webhooks;

import java.nio.file.Path;

/**
 * Whether a webhook server asks clients (the API servers) for certificates, and which CA they must
 * be signed by: Kopf's {@code verify_mode}, {@code verify_cafile} and {@code verify_cadata}.
 * As in Kopf, a CA without a mode makes the certificates optional (checked when presented).
 *
 * <pre>{@code
 * new ClientVerification(VerifyMode.REQUIRED, Path.of("/etc/apiserver-ca.pem"), null)
 * }</pre>
 *
 * @param mode none, optional or required; null for "optional when a CA is given, else none"
 * @param cafile the CA bundle file to verify against, or null
 * @param cadata the CA bundle (PEM) to verify against, or null
 */
record ClientVerification(VerifyMode mode, Path cafile, String cadata) {
    /** No client certificates asked for. */
    public static final ClientVerification NONE = new ClientVerification(null, null, null);

    /** A mode that verifies needs a CA to verify against. */
    public ClientVerification {
        if (mode != null && mode != VerifyMode.NONE && cafile == null && cadata == null) {
            throw new IllegalArgumentException("verifying client certificates (" + mode + ") needs a CA: verifyCafile or verifyCadata");
        }
    }

    /** {@return the mode in effect}: as given, or optional when only a CA is given. */
    public VerifyMode effectiveMode() {
        if (mode != null) {
            return mode;
        }
        return cafile != null || cadata != null ? VerifyMode.OPTIONAL : VerifyMode.NONE;
    }

    /** {@return whether clients are asked for certificates} */
    public boolean verifies() {
        return effectiveMode() != VerifyMode.NONE;
    }
}
