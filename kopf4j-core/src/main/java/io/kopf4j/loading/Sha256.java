package io.kopf4j.loading;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * SHA-256, which every Java runtime has (so its absence is not an error to handle), in the hex
 * that {@code sha256sum} prints: the compiled-class cache's keys and its check of the files it reads.
 *
 * <pre>{@code
 * String hex = Sha256.of("abc".getBytes(UTF_8));   // "ba7816bf…"
 * }</pre>
 */
final class Sha256 {
    private Sha256() {
    }

    static MessageDigest digest() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java runtime has SHA-256", e);
        }
    }

    /** The SHA-256 of these bytes, in hex. */
    static String of(byte[] bytes) {
        return HexFormat.of().formatHex(digest().digest(bytes));
    }

    /** The hex of the SHA-256 of all that this digest was given. */
    static String finish(MessageDigest digest) {
        return HexFormat.of().formatHex(digest.digest());
    }
}
