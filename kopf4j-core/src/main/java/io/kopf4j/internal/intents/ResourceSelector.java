package io.kopf4j.internal.intents;

import io.kopf4j.Resource;
import io.kopf4j.ResourceMatcher;
import io.kopf4j.internal.structs.Json;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;
import org.slf4j.LoggerFactory;

/**
 * Which resource a handler is for, written as in Kopf: {@code "kopfexamples"} (any group),
 * {@code "kopfexamples.kopf.dev"} (kubectl style), {@code "pods.v1"}, {@code "kopf.dev/v1",
 * "kopfexamples"}, {@code "v1", "pods"} (the core group), or group, version and plural. The name
 * matches a plural, singular, kind or short name. Without a version, only the group's preferred
 * version matches.
 *
 * <p>Three forms select several resources: {@code "*"} (everything, optionally within a group),
 * {@code "category=all"} (a category), and a {@link ResourceMatcher} (Kopf's callable selector,
 * asked for every version of every resource); Events are never among them.
 *
 * @param group the group, "" for the core group, or null for any group
 * @param version the version, or null for the preferred one (any one, with a matcher)
 * @param name a plural, singular, kind or short name; {@code *} for every resource
 * @param category a category the resources must have, or null
 * @param matcher the predicate the resources must pass, or null
 */
public record ResourceSelector(String group, String version, String name, String category, ResourceMatcher matcher) {
    private static final Pattern VERSION = Pattern.compile("v\\d+(?:(?:alpha|beta)\\d+)?");
    private static final String EVERYTHING = "*";
    private static final String CATEGORY = "category=";

    public ResourceSelector(String group, String version, String name) {
        this(group, version, name, null, null);
    }

    public ResourceSelector(String group, String version, String name, String category) {
        this(group, version, name, category, null);
    }

    /** {@return the selector of the resources a predicate picks, of any group and version} */
    public static ResourceSelector matching(ResourceMatcher matcher) {
        return new ResourceSelector(null, null, EVERYTHING, null, java.util.Objects.requireNonNull(matcher, "matcher"));
    }

    /** Selects every resource (of a category, if one is given) rather than one by name. */
    public boolean multiple() {
        return EVERYTHING.equals(name);
    }

    /** Parses Kopf's positional forms; throws IllegalArgumentException with the reason otherwise. */
    public static ResourceSelector parse(String... args) {
        for (String arg : args) {
            if (arg == null || arg.isBlank()) {
                throw new IllegalArgumentException("empty resource name in " + List.of(args));
            }
        }
        return switch (args.length) {
            case 1 -> parseOne(args[0]);
            case 2 -> parseTwo(args[0], args[1]);
            case 3 -> new ResourceSelector(args[0], args[1], args[2]);
            default -> throw new IllegalArgumentException(
                    "a resource is given by 1 to 3 strings (e.g. \"kopfexamples\" or \"kopf.dev\", \"v1\", \"kopfexamples\"), got "
                            + args.length);
        };
    }

    private static ResourceSelector parseOne(String arg) {
        if (arg.startsWith(CATEGORY) && arg.length() > CATEGORY.length()) {
            return new ResourceSelector(null, null, EVERYTHING, arg.substring(CATEGORY.length()));
        }
        int dot = arg.indexOf('.');
        if (dot < 0) {
            return new ResourceSelector(null, null, arg);
        }
        String name = arg.substring(0, dot);
        String rest = arg.substring(dot + 1);
        int next = rest.indexOf('.');
        String first = next < 0 ? rest : rest.substring(0, next);
        if (VERSION.matcher(first).matches()) {
            return new ResourceSelector(next < 0 ? "" : rest.substring(next + 1), first, name);
        }
        return new ResourceSelector(rest, null, name);
    }

    private static ResourceSelector parseTwo(String groupVersion, String name) {
        int slash = groupVersion.indexOf('/');
        if (slash >= 0) {
            return new ResourceSelector(groupVersion.substring(0, slash), groupVersion.substring(slash + 1), name);
        }
        if (VERSION.matcher(groupVersion).matches()) {
            return new ResourceSelector("", groupVersion, name);
        }
        return new ResourceSelector(groupVersion, null, name);
    }

    /**
     * As Kopf's warnings show a selector (its {@code Selector}'s repr): {@code Selector(group='kopf.dev',
     * any_name='kopfexamples')}; {@code "*"} is Kopf's {@code EVERYTHING}.
     */
    public String kopfRepr() {
        List<String> fields = new ArrayList<>();
        if (group != null) {
            fields.add("group=" + Json.pythonRepr(group));
        }
        if (version != null) {
            fields.add("version=" + Json.pythonRepr(version));
        }
        if (matcher != null) {
            fields.add("fn=<function " + matcherName() + ">");
        } else if (category != null) {
            fields.add("category=" + Json.pythonRepr(category));
        } else {
            fields.add("any_name=" + (multiple() ? "<Marker.EVERYTHING: 1>" : Json.pythonRepr(name)));
        }
        return "Selector(" + String.join(", ", fields) + ")";
    }

    /** The user's predicate, whose failure means "no" for this resource rather than a failed rescan or event. */
    private boolean asked(Resource resource) {
        try {
            return matcher.matches(resource);
        } catch (RuntimeException e) {
            LoggerFactory.getLogger(ResourceSelector.class).warn("The selector {} failed for {}: {}; it is not served.",
                    this, resource, e.toString());
            return false;
        }
    }

    /** A matcher's class as messages name it: its simple name, or the lambda's declaring class's. */
    private String matcherName() {
        String name = matcher.getClass().getSimpleName();
        int lambda = name.indexOf("$$Lambda");
        return lambda < 0 ? name : "a lambda of " + name.substring(0, lambda);
    }

    /** The groups discovery must read to resolve this selector; null means all groups. */
    public Set<String> groupsToDiscover() {
        return group == null ? null : Set.of(group);
    }

    /** The groups discovery must read to resolve all these selectors; null means all groups. */
    public static Set<String> groupsToDiscover(Collection<ResourceSelector> selectors) {
        Set<String> groups = new HashSet<>();
        for (ResourceSelector selector : selectors) {
            if (selector.groupsToDiscover() == null) {
                return null;
            }
            groups.addAll(selector.groupsToDiscover());
        }
        return groups;
    }

    public boolean matches(Resource resource) {
        if (group != null && !group.equals(resource.group())) {
            return false;
        }
        if (version == null ? !resource.preferred() && matcher == null : !version.equals(resource.version())) {
            return false;
        }
        if (multiple()) {
            boolean events = resource.plural().equals("events") && (resource.group().isEmpty() || resource.group().equals("events.k8s.io"));
            return !events && (category == null || resource.categories().contains(category))
                    && (matcher == null || asked(resource));
        }
        return name.equals(resource.plural()) || name.equals(resource.singular()) || name.equals(resource.kind())
                || resource.shortNames().contains(name);
    }

    /**
     * The resources this selector serves among the discovered ones. As with kubectl, the core group
     * wins over others ({@code pods}); a name found in several other groups is ambiguous.
     */
    public Resolution resolve(List<Resource> discovered) {
        List<Resource> matched = new ArrayList<>();
        for (Resource resource : discovered) {
            if (matches(resource)) {
                matched.add(resource);
            }
        }
        if (multiple()) {
            return new Resolution(matched, false);
        }
        List<Resource> core = matched.stream().filter(r -> r.group().isEmpty()).toList();
        if (!core.isEmpty()) {
            return new Resolution(core, false);
        }
        Set<String> groups = new LinkedHashSet<>();
        matched.forEach(r -> groups.add(r.group()));
        return new Resolution(matched, groups.size() > 1);
    }

    /** What a selector resolved to; {@code ambiguous} means it matched several groups and is not served. */
    public record Resolution(List<Resource> resources, boolean ambiguous) {
    }

    /** As written in Kopf's style, for messages: {@code kopfexamples}, {@code kopf.dev/v1/kopfexamples}. */
    @Override
    public String toString() {
        if (matcher != null) {
            return "resources matching " + matcherName();
        }
        if (category != null) {
            return CATEGORY + category;
        }
        StringBuilder text = new StringBuilder();
        if (group != null) {
            text.append(group.isEmpty() ? "core" : group).append('/');
        }
        if (version != null) {
            text.append(version).append('/');
        }
        return text.append(name).toString();
    }
}
