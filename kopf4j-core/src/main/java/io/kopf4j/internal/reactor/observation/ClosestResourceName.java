package io.kopf4j.internal.reactor.observation;

import io.kopf4j.Resource;
import io.kopf4j.internal.intents.ResourceSelector;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The name of a served resource closest to an unresolved selector's name, for a "did you mean
 * ...?": the plural, singular, kind or short name with the fewest edits (letters added, removed or
 * replaced, case aside), if those edits are at most a third of the name (one for short names). The
 * first resource in discovery order wins a tie.
 *
 * <pre>{@code
 * ClosestResourceName.of(ResourceSelector.parse("kopfexampel"), discovered)   // Optional[kopfexample]
 * }</pre>
 */
final class ClosestResourceName {
    private ClosestResourceName() {
    }

    /** The closest name among the discovered resources, or empty if none is close (or the selector names no single resource). */
    static Optional<String> of(ResourceSelector selector, List<Resource> discovered) {
        if (selector.multiple()) {
            return Optional.empty();
        }
        String wanted = selector.name().toLowerCase(Locale.ROOT);
        int allowed = Math.max(1, wanted.length() / 3);
        String closest = null;
        int fewest = allowed + 1;
        for (Resource resource : discovered) {
            for (String name : namesOf(resource)) {
                int edits = edits(wanted, name.toLowerCase(Locale.ROOT));
                if (edits < fewest) {
                    fewest = edits;
                    closest = name;
                }
            }
        }
        return Optional.ofNullable(closest);
    }

    private static List<String> namesOf(Resource resource) {
        List<String> names = new ArrayList<>(Arrays.asList(resource.plural(), resource.singular(), resource.kind()));
        names.addAll(resource.shortNames());
        names.removeIf(name -> name == null || name.isEmpty());   // the core group's resources have no singular
        return names;
    }

    /**
     * Levenshtein's distance, with one row of the table at a time: by hand, as a dozen lines are less than
     * a library (commons-text) in the operator's runtime for one warning.
     */
    private static int edits(String from, String to) {
        int[] previous = new int[to.length() + 1];
        int[] current = new int[to.length() + 1];
        for (int j = 0; j <= to.length(); j++) {
            previous[j] = j;
        }
        for (int i = 1; i <= from.length(); i++) {
            current[0] = i;
            for (int j = 1; j <= to.length(); j++) {
                int replace = previous[j - 1] + (from.charAt(i - 1) == to.charAt(j - 1) ? 0 : 1);
                current[j] = Math.min(replace, Math.min(previous[j], current[j - 1]) + 1);
            }
            int[] swap = previous;
            previous = current;
            current = swap;
        }
        return previous[to.length()];
    }
}
