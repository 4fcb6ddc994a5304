package io.kopf4j.internal.reactor.observation;

import io.kopf4j.Resource;
import io.kopf4j.internal.intents.ResourceSelector;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;

/**
 * What the watched handlers' selectors resolve to among the discovered resources at one moment, as
 * Kopf's {@code revise_resources}: the resources to serve, and those left out with the reason. A
 * selector that matches nothing is unresolved (its CRD is missing, or its name is a typo); a name
 * found in several groups is ambiguous; a resource without the {@code list} and {@code watch}
 * verbs is not watchable; one without {@code patch} is not patchable, which matters only to the
 * handlers that patch (changing handlers, daemons, timers). None of these stops the operator: they
 * are logged, and {@link #unserved()} tells readiness which selectors serve nothing and why.
 *
 * <pre>{@code
 * ResourceInsights insights = ResourceInsights.revise(registry.selectors(), discovered, patched);
 * insights.served().forEach(resource -> ...);        // watch these
 * insights.unserved();                                // {latewidgets.late.example.com=unresolved: try creating its CRD}
 * }</pre>
 *
 * @param served the resources to watch
 * @param unresolved the selectors that match no discovered resource
 * @param ambiguous the selectors that match a name in several groups, with what they match
 * @param nonWatchable the matched resources that cannot be listed and watched
 * @param nonPatchable the matched resources that cannot be patched, though handlers that patch select them
 * @param unserved the selectors that serve no resource at all, each with the reason
 * (all in the order of the selectors and of discovery, for stable log lines)
 */
record ResourceInsights(Set<Resource> served, Set<ResourceSelector> unresolved,
                        Map<ResourceSelector, List<Resource>> ambiguous, Set<Resource> nonWatchable,
                        Set<Resource> nonPatchable, Map<ResourceSelector, String> unserved) {
    /** Before the first discovery: nothing served, nothing known to be missing. */
    static final ResourceInsights NONE = new ResourceInsights(Set.of(), Set.of(), Map.of(), Set.of(), Set.of(), Map.of());

    private static final List<String> WATCHING = List.of("list", "watch");

    /**
     * @param selectors the watched handlers' selectors
     * @param discovered the resources that the API server's discovery lists
     * @param patched whether handlers that patch the objects (changing handlers, daemons, timers) select a resource
     */
    static ResourceInsights revise(Collection<ResourceSelector> selectors, List<Resource> discovered,
                                   Predicate<Resource> patched) {
        Set<Resource> served = new LinkedHashSet<>();
        Set<ResourceSelector> unresolved = new LinkedHashSet<>();
        Map<ResourceSelector, List<Resource>> ambiguous = new LinkedHashMap<>();
        Set<Resource> nonWatchable = new LinkedHashSet<>();
        Set<Resource> nonPatchable = new LinkedHashSet<>();
        Map<ResourceSelector, String> unserved = new LinkedHashMap<>();
        for (ResourceSelector selector : selectors) {
            ResourceSelector.Resolution resolution = selector.resolve(discovered);
            if (resolution.resources().isEmpty() && selector.matcher() != null) {
                continue;   // a predicate names no resource: none matching yet is no problem (Kopf: not "specific")
            }
            if (resolution.resources().isEmpty()) {
                unresolved.add(selector);
                unserved.put(selector, "unresolved: try creating its CRD");
                continue;
            }
            if (resolution.ambiguous()) {
                ambiguous.put(selector, resolution.resources());
                unserved.put(selector, "ambiguous: it matches " + resolution.resources() + "; name the group");
                continue;
            }
            List<String> reasons = new ArrayList<>();
            boolean any = false;
            for (Resource resource : resolution.resources()) {
                if (!resource.verbs().containsAll(WATCHING)) {
                    nonWatchable.add(resource);
                    reasons.add(resource + " is not watchable: its verbs are " + resource.verbs());
                } else if (!resource.verbs().contains("patch") && patched.test(resource)) {
                    nonPatchable.add(resource);
                    reasons.add(resource + " is not patchable, as its handlers need: its verbs are " + resource.verbs());
                } else {
                    served.add(resource);
                    any = true;
                }
            }
            if (!any) {
                unserved.put(selector, String.join(", and ", reasons));
            }
        }
        return new ResourceInsights(Collections.unmodifiableSet(served), Collections.unmodifiableSet(unresolved),
                Collections.unmodifiableMap(ambiguous), Collections.unmodifiableSet(nonWatchable),
                Collections.unmodifiableSet(nonPatchable), Collections.unmodifiableMap(unserved));
    }
}
