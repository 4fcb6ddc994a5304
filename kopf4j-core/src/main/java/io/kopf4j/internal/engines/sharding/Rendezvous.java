package io.kopf4j.internal.engines.sharding;

import java.nio.charset.StandardCharsets;
import java.util.Collection;

/**
 * Rendezvous (highest-random-weight) hashing: an object goes to the candidate whose hash with the
 * object's key is the highest. Every replica computes the same owner from the same candidates, and
 * when a candidate joins or leaves, only the objects it wins or held move (about 1/N of them).
 * Written by hand: it is ten lines, and the hash must never change between versions of kopf4j (or
 * replicas of two versions would disagree), which a library's choice does not promise.
 *
 * <pre>{@code
 * String owner = Rendezvous.owner(uid, List.of("replica-a", "replica-b", "replica-c"));
 * }</pre>
 */
final class Rendezvous {
    private Rendezvous() {
    }

    /** {@return the candidate that owns the key; null if there are no candidates} */
    public static String owner(String key, Collection<String> candidates) {
        String best = null;
        long bestWeight = 0;
        for (String candidate : candidates) {
            long weight = weight(candidate, key);
            // Ties (practically never) go to the smaller name, so that every replica agrees.
            if (best == null || Long.compareUnsigned(weight, bestWeight) > 0
                    || (weight == bestWeight && candidate.compareTo(best) < 0)) {
                best = candidate;
                bestWeight = weight;
            }
        }
        return best;
    }

    /** FNV-1a over the candidate, a separator and the key, then SplitMix64's finaliser for the avalanche. */
    static long weight(String candidate, String key) {
        long hash = 0xcbf29ce484222325L;
        hash = fnv(hash, candidate.getBytes(StandardCharsets.UTF_8));
        hash = (hash ^ 0xff) * 0x100000001b3L;
        hash = fnv(hash, key.getBytes(StandardCharsets.UTF_8));
        hash = (hash ^ (hash >>> 30)) * 0xbf58476d1ce4e5b9L;
        hash = (hash ^ (hash >>> 27)) * 0x94d049bb133111ebL;
        return hash ^ (hash >>> 31);
    }

    private static long fnv(long hash, byte[] bytes) {
        for (byte b : bytes) {
            hash = (hash ^ (b & 0xff)) * 0x100000001b3L;
        }
        return hash;
    }
}
