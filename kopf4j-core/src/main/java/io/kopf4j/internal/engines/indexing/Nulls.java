package io.kopf4j.internal.engines.indexing;

/**
 * Kopf's indexes hold {@code None} as a key (for non-map results) and as a value (placeholders);
 * {@link java.util.concurrent.ConcurrentHashMap}, which lets handlers read while the engine writes,
 * holds no nulls: a marker stands for them inside.
 *
 * <pre>{@code
 * map.put(Nulls.mask(key), value);
 * Object original = Nulls.unmask(stored);
 * }</pre>
 */
final class Nulls {
    private static final Object NULL = new Object() {
        @Override
        public String toString() {
            return "null";
        }
    };

    private Nulls() {
    }

    static Object mask(Object value) {
        return value == null ? NULL : value;
    }

    static Object unmask(Object stored) {
        return stored == NULL ? null : stored;
    }
}
