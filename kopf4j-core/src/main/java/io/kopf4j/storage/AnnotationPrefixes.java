package io.kopf4j.storage;

import java.util.Map;

/**
 * Which annotations belong to Kopf-style operators and so are not part of an object's essence:
 * kopf4j's own prefix, Kopf's {@code kopf.zalando.org} and its subdomains, and any prefix that an
 * operator marked with a {@code <prefix>/kopf-managed} annotation. Ignoring them stops two
 * operators on one object from waking each other up forever.
 *
 * <pre>{@code
 * AnnotationPrefixes prefixes = new AnnotationPrefixes("example.com");
 * prefixes.isOperatorKey("kopf.zalando.org/last-handled-configuration", annotations);   // true
 * }</pre>
 */
public final class AnnotationPrefixes {
    /** Kopf's own annotation prefix. */
    public static final String KOPF_PREFIX = "kopf.zalando.org";
    private static final String MANAGED_MARKER = "kopf-managed";

    private final String ownPrefix;

    /**
     * The prefixes of Kopf-style operators, with this operator's own.
     *
     * @param ownPrefix this operator's annotation prefix, e.g. {@code kopf.zalando.org}
     */
    public AnnotationPrefixes(String ownPrefix) {
        this.ownPrefix = ownPrefix;
    }

    /**
     * {@return true if the annotation belongs to a Kopf-style operator}
     *
     * @param key the annotation's key
     * @param annotations all annotations of the object, to find {@code kopf-managed} markers
     */
    public boolean isOperatorKey(String key, Map<?, ?> annotations) {
        int slash = key.indexOf('/');
        if (slash < 0) {
            return false;
        }
        String prefix = key.substring(0, slash);
        return prefix.equals(ownPrefix)
                || prefix.equals(KOPF_PREFIX)
                || prefix.endsWith("." + KOPF_PREFIX)
                || annotations.containsKey(prefix + "/" + MANAGED_MARKER);
    }
}
