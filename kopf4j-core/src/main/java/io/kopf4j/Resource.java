package io.kopf4j;

import java.util.List;

/**
 * A resource kind as the API server's discovery reports it.
 *
 * <pre>{@code
 * @On.Event("pods")
 * void event(Resource resource, Logger logger) {
 *     logger.info("{} of {}", resource.kind(), resource.apiVersion());   // Pod of v1
 * }
 * }</pre>
 *
 * @param group the API group; empty for the core group ({@code v1} pods, services, ...)
 * @param version the version served and watched
 * @param plural the plural name used in URLs, e.g. {@code kopfexamples}
 * @param kind the kind, e.g. {@code KopfExample}
 * @param singular the singular name (may be empty for built-in resources)
 * @param shortNames kubectl's short names, e.g. {@code kex}
 * @param categories categories such as {@code all}
 * @param subresources subresource names such as {@code status} and {@code scale}
 * @param namespaced whether objects live in namespaces
 * @param preferred whether this is the group's preferred version
 * @param verbs the verbs allowed (list, watch, patch, ...)
 */
public record Resource(String group, String version, String plural, String kind, String singular,
                       List<String> shortNames, List<String> categories, List<String> subresources,
                       boolean namespaced, boolean preferred, List<String> verbs) {
    /** Copies the lists. */
    public Resource {
        shortNames = List.copyOf(shortNames);
        categories = List.copyOf(categories);
        subresources = List.copyOf(subresources);
        verbs = List.copyOf(verbs);
    }

    /** {@return {@code group/version}, or just {@code version} for the core group} */
    public String apiVersion() {
        return group.isEmpty() ? version : group + "/" + version;
    }

    /** {@return true if status changes go through the {@code /status} subresource} */
    public boolean hasStatusSubresource() {
        return subresources.contains("status");
    }

    /** kubectl's spelling: {@code kopfexamples.v1.kopf.dev}, or {@code pods.v1} for the core group. */
    @Override
    public String toString() {
        return group.isEmpty() ? plural + "." + version : plural + "." + version + "." + group;
    }
}
