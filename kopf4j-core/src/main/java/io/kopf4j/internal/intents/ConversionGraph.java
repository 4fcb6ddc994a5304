package io.kopf4j.internal.intents;

import io.kopf4j.InvalidHandlerException;
import io.kopf4j.internal.intents.ConversionHandler.VersionedType;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The conversions of an operator, kind by kind, checked as hub and spoke (kubebuilder's rule): the
 * storage version of a kind is its hub, every other version converts to the hub and from it, and
 * two others convert through the hub. Anything else is a start-up error naming the conversions.
 *
 * <pre>{@code
 * ConversionGraph graph = ConversionGraph.of(registry.conversions());
 * graph.path("kopf4j.dev", "Widget", "v1alpha1", "v1beta1");   // [up (v1alpha1 → v1), down (v1 → v1beta1)]
 * }</pre>
 */
public final class ConversionGraph {
    private final Map<String, KindConversions> kinds;

    private ConversionGraph(Map<String, KindConversions> kinds) {
        this.kinds = kinds;
    }

    /**
     * The conversions of one kind.
     *
     * @param hub the storage version
     * @param up each other version's conversion to the hub, by version
     * @param down the hub's conversion to each other version, by version
     */
    public record KindConversions(VersionedType hub, Map<String, ConversionHandler> up, Map<String, ConversionHandler> down) {
        /** {@return the CRD's name, {@code <plural>.<group>}} */
        public String crdName() {
            return io.fabric8.kubernetes.api.model.HasMetadata.getFullResourceName(hub.type());
        }

        /** {@return the kind's versions: the hub's, then the others'} */
        public List<String> versions() {
            List<String> versions = new ArrayList<>(List.of(hub.version()));
            versions.addAll(up.keySet());
            return versions;
        }
    }

    /**
     * Checks and arranges the conversions.
     *
     * @throws InvalidHandlerException if a kind has no single storage version, two classes for one
     *         version, a conversion between two non-storage versions, or a version with one direction only
     */
    public static ConversionGraph of(List<ConversionHandler> conversions) {
        Map<String, List<ConversionHandler>> byKind = new LinkedHashMap<>();
        for (ConversionHandler conversion : conversions) {
            byKind.computeIfAbsent(conversion.from().kind() + "." + conversion.from().group(), k -> new ArrayList<>())
                    .add(conversion);
        }
        Map<String, KindConversions> kinds = new LinkedHashMap<>();
        byKind.forEach((kind, ofKind) -> kinds.put(kind, arrange(kind, ofKind)));
        return new ConversionGraph(kinds);
    }

    private static KindConversions arrange(String kind, List<ConversionHandler> conversions) {
        Map<String, VersionedType> versions = new LinkedHashMap<>();
        for (ConversionHandler conversion : conversions) {
            for (VersionedType side : List.of(conversion.from(), conversion.to())) {
                VersionedType known = versions.putIfAbsent(side.version(), side);
                if (known != null && !known.type().equals(side.type())) {
                    throw new InvalidHandlerException("Conversions of " + kind + " use two classes for version "
                            + side.version() + ": " + known.type().getName() + " and " + side.type().getName()
                            + " (" + conversion.origin() + "); use one");
                }
            }
        }
        List<VersionedType> hubs = versions.values().stream().filter(VersionedType::storage).toList();
        if (hubs.size() != 1) {
            throw new InvalidHandlerException("Conversions of " + kind + " need exactly one storage version (the hub),"
                    + " but " + (hubs.isEmpty() ? "none of " + versions.keySet() + " is marked" : hubs.stream()
                    .map(VersionedType::version).collect(Collectors.joining(" and ")) + " are marked")
                    + " @Version(storage = true); fabric8's default is true: mark the others"
                    + " @Version(value = \"...\", storage = false)");
        }
        VersionedType hub = hubs.getFirst();
        Map<String, ConversionHandler> up = new LinkedHashMap<>();
        Map<String, ConversionHandler> down = new LinkedHashMap<>();
        for (ConversionHandler conversion : conversions) {
            if (conversion.to().equals(hub)) {
                up.put(conversion.from().version(), conversion);
            } else if (conversion.from().equals(hub)) {
                down.put(conversion.to().version(), conversion);
            } else {
                throw new InvalidHandlerException("Conversion " + conversion.origin() + " converts " + conversion.from()
                        + " to " + conversion.to().version() + ", but conversions go to and from the storage version "
                        + hub.version() + " (hub and spoke): convert each version to " + hub.version() + " and back,"
                        + " and kopf4j goes through " + hub.version() + " between the others");
            }
        }
        for (VersionedType spoke : versions.values()) {
            if (spoke.equals(hub)) {
                continue;
            }
            if (!up.containsKey(spoke.version())) {
                throw missing(kind, spoke, hub, down.get(spoke.version()));
            }
            if (!down.containsKey(spoke.version())) {
                throw missing(kind, hub, spoke, up.get(spoke.version()));
            }
        }
        return new KindConversions(hub, up, down);
    }

    private static InvalidHandlerException missing(String kind, VersionedType from, VersionedType to,
                                                   ConversionHandler reverse) {
        return new InvalidHandlerException("No conversion of " + kind + " from " + from + " to " + to.version()
                + ", the way back of " + reverse.origin() + ": add an @On.Convert method taking "
                + from.type().getSimpleName() + " and returning " + to.type().getSimpleName()
                + " (the API server converts both ways)");
    }

    /** {@return whether there is no conversion at all} */
    public boolean isEmpty() {
        return kinds.isEmpty();
    }

    /** {@return the conversions of each kind} */
    public List<KindConversions> kinds() {
        return List.copyOf(kinds.values());
    }

    /** {@return the conversions of one kind, if any} */
    public Optional<KindConversions> kind(String group, String kind) {
        return Optional.ofNullable(kinds.get(kind + "." + group));
    }

    /**
     * The steps from one version to another: through the hub unless one of them is the hub.
     *
     * @throws IllegalArgumentException naming the version that has no conversion
     */
    public List<ConversionHandler> path(String group, String kind, String from, String to) {
        KindConversions conversions = kind(group, kind).orElseThrow(() -> new IllegalArgumentException(
                "this operator has no conversions of " + kind + "." + group));
        List<ConversionHandler> steps = new ArrayList<>();
        String hub = conversions.hub().version();
        if (!from.equals(hub)) {
            steps.add(step(conversions.up(), from, kind, conversions));
        }
        if (!to.equals(hub)) {
            steps.add(step(conversions.down(), to, kind, conversions));
        }
        return steps;
    }

    /** {@return the conversion the other way: a spoke's down for its up, its up for its down} */
    public ConversionHandler reverse(ConversionHandler step) {
        KindConversions conversions = kind(step.from().group(), step.from().kind()).orElseThrow();
        return step.to().equals(conversions.hub()) ? conversions.down().get(step.from().version())
                : conversions.up().get(step.to().version());
    }

    private static ConversionHandler step(Map<String, ConversionHandler> steps, String version, String kind,
                                          KindConversions conversions) {
        ConversionHandler step = steps.get(version);
        if (step == null) {
            throw new IllegalArgumentException("this operator has no conversions of " + kind + " version " + version
                    + "; it converts " + conversions.versions());
        }
        return step;
    }
}
