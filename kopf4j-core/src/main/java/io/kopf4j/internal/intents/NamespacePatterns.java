package io.kopf4j.internal.intents;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Which namespaces an operator serves, written as Kopf's {@code -n} patterns: globs ({@code *},
 * {@code ?}), comma-separated parts, and {@code !} negations. Within one pattern the last matching
 * part decides; a leading negation implies everything else ({@code !kube-*} serves all but
 * {@code kube-*}). A namespace is served if any of the patterns serves it.
 */
public final class NamespacePatterns {
    private static final String GLOB_CHARACTERS = "*?[],!";

    private final List<String> patterns;

    public NamespacePatterns(List<String> patterns) {
        for (String pattern : patterns) {
            if (pattern == null || pattern.isBlank()) {
                throw new IllegalArgumentException("empty namespace pattern");
            }
        }
        this.patterns = List.copyOf(patterns);
    }

    /** No patterns: the operator serves the whole cluster. */
    public boolean clusterWide() {
        return patterns.isEmpty();
    }

    /** Only exact names: no need to watch namespaces to know them. */
    public boolean literal() {
        return patterns.stream().allMatch(p -> p.strip().chars().noneMatch(c -> GLOB_CHARACTERS.indexOf(c) >= 0));
    }

    /** The exact names among the patterns: what is served when namespaces cannot be watched. */
    public Set<String> literals() {
        Set<String> names = new LinkedHashSet<>();
        patterns.stream().flatMap(pattern -> java.util.Arrays.stream(pattern.split(","))).map(String::strip)
                .filter(part -> part.chars().noneMatch(c -> GLOB_CHARACTERS.indexOf(c) >= 0))
                .filter(this::matches)   // not negated by a later part
                .forEach(names::add);
        return names;
    }

    public boolean matches(String namespace) {
        return patterns.stream().anyMatch(pattern -> matches(namespace, pattern));
    }

    private static boolean matches(String namespace, String pattern) {
        String trimmed = pattern.strip();
        boolean result = trimmed.startsWith("!");
        for (String part : trimmed.split(",")) {
            String glob = part.strip();
            if (glob.startsWith("!")) {
                if (glob(glob.substring(1)).matcher(namespace).matches()) {
                    result = false;
                }
            } else if (glob(glob).matcher(namespace).matches()) {
                result = true;
            }
        }
        return result;
    }

    /** A shell glob ({@code *}, {@code ?}) as a regular expression, as Python's fnmatch. */
    private static Pattern glob(String glob) {
        StringBuilder regex = new StringBuilder();
        for (char c : glob.toCharArray()) {
            switch (c) {
                case '*' -> regex.append(".*");
                case '?' -> regex.append('.');
                default -> regex.append(Pattern.quote(String.valueOf(c)));
            }
        }
        return Pattern.compile(regex.toString());
    }

    @Override
    public String toString() {
        return String.join(" ", patterns);
    }
}
