package io.kopf4j.internal.structs;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * SHA-256, which every Java runtime has (so its absence is not an error to handle), in the hex
 * that {@code sha256sum} prints: the compiled-class cache's keys and its check of the files it
 * reads, the sharding's group and view names, the webhook server's check of its certificate files.
 *
 * <pre>{@code
 * String hex = Sha256.of("abc".getBytes(UTF_8));   // "ba7816bf…"
 * String name = Sha256.prefix("a\nb", 5);           // the first 5 bytes: 10 hex digits
 * }</pre>
 */
public final class Sha256 {
    private Sha256() {
    }

    /** A new SHA-256 digest, to be given its input piece by piece. */
    public static MessageDigest digest() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java runtime has SHA-256", e);
        }
    }

    /** The SHA-256 of these bytes, in hex. */
    public static String of(byte[] bytes) {
        return HexFormat.of().formatHex(digest().digest(bytes));
    }

    /** The hex of the SHA-256 of all that this digest was given. */
    public static String finish(MessageDigest digest) {
        return HexFormat.of().formatHex(digest.digest());
    }

    /** The first {@code bytes} bytes of the SHA-256 of this text (UTF-8), in hex: a short stable name. */
    public static String prefix(String text, int bytes) {
        return HexFormat.of().formatHex(digest().digest(text.getBytes(StandardCharsets.UTF_8)), 0, bytes);
    }
}
