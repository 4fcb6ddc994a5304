package io.kopf4j.internal.structs;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The values of a Secret ({@code data} and {@code stringData} of a core {@code v1} Secret), kept out
 * of what kopf4j writes about an object: its diff-base annotation and its log lines (and so its
 * Kubernetes Events). Each value is replaced by a digest of it, so that a change is still a change
 * and a diff still names the key that changed, but not the value: Kopf copies the values into
 * {@code last-handled-configuration} and logs them at debug level; kopf4j does neither.
 *
 * <p>The digest is a SHA-256 of the object's uid and the value, shortened to 128 bits: salted per
 * object, so that equal values in two Secrets do not look equal, and no table of common passwords'
 * digests applies. It is no encryption: whoever reads the annotation can still test a guess, as whoever
 * can read the annotation can read the Secret itself.
 *
 * <pre>{@code
 * Map<String, Object> loggable = SecretValues.digested(body);   // {"data": {"password": "sha256:3b6f…"}, ...}
 * }</pre>
 */
public final class SecretValues {
    /** What a digest starts with, so that it reads as one in a diff. */
    public static final String PREFIX = "sha256:";
    private static final List<String> FIELDS = List.of("data", "stringData");

    private SecretValues() {
    }

    /** {@return whether the body is a core v1 Secret's} */
    public static boolean isSecret(Map<String, Object> body) {
        return "Secret".equals(body.get("kind")) && "v1".equals(body.get("apiVersion"));
    }

    /** {@return whether the resource is the core Secrets' ({@code group} "" and plural {@code secrets})} */
    public static boolean isSecrets(String group, String plural) {
        return group.isEmpty() && "secrets".equals(plural);
    }

    /**
     * A Secret's body with its values digested, for what is stored or logged about it; any other
     * body as it is.
     *
     * @param body the object's body, not changed
     * @return a shallow copy with new {@code data} and {@code stringData} maps for a Secret; the body itself otherwise
     */
    public static Map<String, Object> digested(Map<String, Object> body) {
        if (!isSecret(body)) {
            return body;
        }
        Map<String, Object> copy = new LinkedHashMap<>(body);
        digestInPlace(copy, uidOf(body));
        return copy;
    }

    /**
     * Replaces the values of {@code data} and {@code stringData} in this map (a Secret's body, its
     * essence, or a patch of it) by their digests, with new maps there.
     *
     * @param fields the map with the {@code data} and {@code stringData} fields
     * @param salt the object's uid (empty if it has none yet)
     */
    public static void digestInPlace(Map<String, Object> fields, String salt) {
        for (String field : FIELDS) {
            if (fields.get(field) instanceof Map<?, ?> values) {
                Map<String, Object> digests = new LinkedHashMap<>();
                values.forEach((key, value) -> digests.put(String.valueOf(key), value == null ? null : digest(salt, value)));
                fields.put(field, digests);
            }
        }
    }

    /** {@return the object's uid, or empty} */
    public static String uidOf(Map<String, Object> body) {
        return body.get("metadata") instanceof Map<?, ?> metadata && metadata.get("uid") instanceof String uid ? uid : "";
    }

    private static String digest(String salt, Object value) {
        MessageDigest digest = Sha256.digest();
        digest.update(salt.getBytes(StandardCharsets.UTF_8));
        digest.update((byte) 0);
        digest.update(String.valueOf(value).getBytes(StandardCharsets.UTF_8));
        return PREFIX + HexFormat.of().formatHex(digest.digest(), 0, 16);
    }
}
