package io.kopf4j.storage;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.bouncycastle.crypto.digests.Blake2bDigest;

/**
 * Kopf's annotation keys for handler ids, byte for byte: the id made safe ({@code /} to
 * {@code .}, {@code <>} to {@code _}), cut to Kubernetes' 63-character name limit with a hash
 * suffix ({@code -} + base64 of a 4-byte BLAKE2b with {@code -.} as the extra characters). Both
 * key versions are written and read: V2 limits the name part, V1 (older Kopf) the whole key.
 * ReplicaSets owned by Deployments get {@code -ofDRS}, since Kubernetes copies the Deployment's
 * annotations onto them.
 *
 * <pre>{@code
 * List<String> keys = new StorageKeys("kopf.zalando.org", true).keys("create", body);   // V2's key, then V1's
 * }</pre>
 */
public final class StorageKeys {
    private static final int MAX_NAME = 63;

    private final String prefix;
    private final boolean v1;

    /**
     * Keys under this prefix.
     *
     * @param prefix the annotations' prefix, e.g. {@code kopf.zalando.org}
     * @param v1 also the V1 keys of older Kopf versions
     * @throws IllegalArgumentException if the prefix is empty
     */
    public StorageKeys(String prefix, boolean v1) {
        if (prefix == null || prefix.isEmpty()) {
            throw new IllegalArgumentException("annotation storages must have a prefix");
        }
        this.prefix = prefix;
        this.v1 = v1;
    }

    /** {@return the annotations' prefix} */
    public String prefix() {
        return prefix;
    }

    /**
     * {@return the keys to write, and to read in this order (the first found wins)}
     *
     * @param id the handler's id
     * @param body the object (for the ReplicaSet mark), or null
     */
    public List<String> keys(String id, Map<String, Object> body) {
        String marked = body == null ? id : mark(id, body);
        List<String> keys = new ArrayList<>();
        keys.add(v2(marked));
        if (v1) {
            String older = v1(marked);
            if (!keys.contains(older)) {
                keys.add(older);
            }
        }
        return keys;
    }

    String v1(String id) {
        String safe = safe(id);
        String head = prefix + "/";
        String suffix = safe.length() <= MAX_NAME - head.length() ? "" : suffix(safe);
        int keep = Math.max(0, Math.min(safe.length(), MAX_NAME - head.length() - suffix.length()));
        return head + safe.substring(0, keep) + suffix;
    }

    String v2(String id) {
        String suffix = id.length() > MAX_NAME ? suffix(id) : "";
        String safe = safe(id);
        int keep = Math.min(safe.length(), Math.max(0, MAX_NAME - suffix.length()));
        return prefix + "/" + safe.substring(0, keep) + suffix;
    }

    static String safe(String id) {
        return id.replace('/', '.').replace('<', '_').replace('>', '_');
    }

    static String suffix(String key) {
        byte[] input = key.getBytes(StandardCharsets.UTF_8);
        Blake2bDigest blake = new Blake2bDigest(32);   // digest size in bits: 4 bytes
        blake.update(input, 0, input.length);
        byte[] digest = new byte[4];
        blake.doFinal(digest, 0);
        String alnums = Base64.getEncoder().encodeToString(digest).replace('+', '-').replace('/', '.');
        return stripTrailing("-" + alnums, "=-.");
    }

    private static String stripTrailing(String text, String characters) {
        int end = text.length();
        while (end > 0 && characters.indexOf(text.charAt(end - 1)) >= 0) {
            end--;
        }
        return text.substring(0, end);
    }

    @SuppressWarnings("unchecked")
    private static String mark(String id, Map<String, Object> body) {
        Object metadata = body.get("metadata");
        if ("ReplicaSet".equals(body.get("kind")) && metadata instanceof Map<?, ?> meta
                && meta.get("ownerReferences") instanceof List<?> owners
                && owners.stream().anyMatch(o -> o instanceof Map<?, ?> owner && "Deployment".equals(owner.get("kind")))) {
            return id + "-ofDRS";
        }
        return id;
    }
}
