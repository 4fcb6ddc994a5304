package io.kopf4j.internal.reactor.processing;

import io.kopf4j.internal.structs.Json;
import java.lang.ref.SoftReference;
import java.util.Map;

/**
 * An object's latest body, as its daemons and timers see it (Kopf's live body), kept as its JSON
 * bytes rather than as parsed maps: an object with daemons keeps its body for as long as it exists,
 * and its bytes take a fraction of the parsed maps' heap (Kopf's example object with its
 * managedFields: ~0.7 KB of JSON against ~5.6 KB of maps, so ~49 MB less for 10,000 daemons, see
 * docs/performance.md). A read parses the bytes again, and the map is cached softly: a body that
 * its daemon or timer reads often (a timer's parameters, every second) stays parsed, and one that
 * nobody reads is dropped by the collector when it needs the room (the JVM keeps a soft reference
 * about a second per free MB of heap since its last read); a weak cache, dropped at every young
 * collection, would have 1,000 timers parse their bodies again after each.
 */
final class LatestBody {
    private record Parsed(byte[] json, Map<String, Object> body) {
    }

    private volatile byte[] json;
    private volatile SoftReference<Parsed> parsed = new SoftReference<>(null);

    /** Keeps this body as the latest; the map itself is not kept. */
    void set(Map<String, Object> body) {
        json = Json.bytes(body);
    }

    /**
     * {@return the latest body, or null if none was set}: a new map equal to what was set when that
     * was parsed by {@code Json} too, as watch events are (a map built otherwise comes back with
     * JSON's types: a small {@code Long} as an {@code Integer}, a {@code Float} as a {@code Double})
     */
    Map<String, Object> get() {
        byte[] current = json;
        if (current == null) {
            return null;
        }
        Parsed cached = parsed.get();
        if (cached != null && cached.json() == current) {
            return cached.body();
        }
        Map<String, Object> body = Json.parseMap(current);
        parsed = new SoftReference<>(new Parsed(current, body));
        return body;
    }
}
