package io.kopf4j.reactor.processing;

import io.kopf4j.structs.Json;
import java.lang.ref.WeakReference;
import java.util.Map;

/**
 * An object's latest body, as its daemons and timers see it (Kopf's live body), kept as its JSON
 * bytes rather than as parsed maps: an object with daemons keeps its body for as long as it exists,
 * and its bytes take a fraction of the parsed maps' heap (Kopf's example object with its
 * managedFields: ~1.4 KB of JSON against ~8 KB of maps, so ~65 MB less for 10,000 daemons, see
 * docs/performance.md). A read parses the bytes again; the map is cached weakly, so that reads in a
 * burst parse once, and a cache nobody reads costs nothing after the next collection.
 */
final class LatestBody {
    private record Parsed(byte[] json, Map<String, Object> body) {
    }

    private volatile byte[] json;
    private volatile WeakReference<Parsed> parsed = new WeakReference<>(null);

    /** Keeps this body as the latest; the map itself is not kept. */
    void set(Map<String, Object> body) {
        json = Json.bytes(body);
    }

    /** {@return the latest body, or null if none was set}; equal to what was set, not necessarily the same map */
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
        parsed = new WeakReference<>(new Parsed(current, body));
        return body;
    }
}
