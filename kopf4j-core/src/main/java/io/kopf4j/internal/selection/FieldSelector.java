package io.kopf4j.internal.selection;

import io.kopf4j.internal.structs.Dicts;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * A Kubernetes field selector in its text form, as the API server's {@code fieldSelector} takes it:
 * {@code path=value}, {@code path==value} or {@code path!=value}, joined by commas, all of which must
 * hold; a backslash escapes a comma, an equals sign or itself in a value. An absent field is the
 * empty string ({@code spec.nodeName=} selects unscheduled Pods). Which fields may be selected is
 * the API server's to say (for custom resources: {@code metadata.name} and
 * {@code metadata.namespace}); it refuses the others when the operator first lists. Parsed here for
 * the same reasons as {@link LabelSelector}: one error at the start, and the same check in the operator.
 *
 * <pre>{@code
 * FieldSelector selector = FieldSelector.parse("spec.nodeName=node-1,status.phase!=Succeeded");
 * selector.matches(pod);
 * }</pre>
 */
public final class FieldSelector {
    private static final Pattern PATH = Pattern.compile("[A-Za-z0-9_-]+(\\.[A-Za-z0-9_-]+)*");

    private final String text;
    private final List<Term> terms;

    private record Term(List<String> path, boolean equal, String value) {
        boolean test(Map<String, Object> body) {
            Object actual = Dicts.resolve(body, path, null);
            return value.equals(actual == null ? "" : actual.toString()) == equal;
        }
    }

    private FieldSelector(String text, List<Term> terms) {
        this.text = text;
        this.terms = List.copyOf(terms);
    }

    /** @throws IllegalArgumentException saying which term is wrong and why */
    public static FieldSelector parse(String text) {
        if (text == null || text.isBlank()) {
            throw new IllegalArgumentException("is empty: it would select every object");
        }
        List<Term> terms = new ArrayList<>();
        for (String term : split(text.strip())) {
            terms.add(term(term));
        }
        return new FieldSelector(text.strip(), terms);
    }

    /** Whether the object's fields satisfy every term. */
    public boolean matches(Map<String, Object> body) {
        return terms.stream().allMatch(term -> term.test(body));
    }

    /** Whether every term is on {@code metadata}: checkable on a metadata-only listing. */
    public boolean onMetadata() {
        return terms.stream().allMatch(term -> term.path().get(0).equals("metadata"));
    }

    /** The selector as given, for the API server's {@code fieldSelector} parameter. */
    @Override
    public String toString() {
        return text;
    }

    private static Term term(String term) {
        int operator = unescapedIndexOf(term, '=');
        if (operator < 0) {
            throw new IllegalArgumentException("'" + term + "' has no operator (=, == or !=)");
        }
        boolean equal = operator == 0 || term.charAt(operator - 1) != '!';
        String path = term.substring(0, equal ? operator : operator - 1).strip();
        int valueStart = operator + 1 < term.length() && term.charAt(operator + 1) == '=' && equal ? operator + 2 : operator + 1;
        if (!PATH.matcher(path).matches()) {
            throw new IllegalArgumentException("'" + path + "' is no field path (in '" + term + "')");
        }
        return new Term(Arrays.asList(path.split("\\.")), equal, unescape(term.substring(valueStart).strip()));
    }

    /** The terms between the commas that no backslash escapes. */
    private static List<String> split(String text) {
        List<String> terms = new ArrayList<>();
        int start = 0;
        for (int comma = unescapedIndexOf(text, ','); comma >= 0; comma = unescapedIndexOf(text, ',', start)) {
            terms.add(text.substring(start, comma));
            start = comma + 1;
        }
        terms.add(text.substring(start));
        return terms;
    }

    private static int unescapedIndexOf(String text, char wanted) {
        return unescapedIndexOf(text, wanted, 0);
    }

    private static int unescapedIndexOf(String text, char wanted, int from) {
        for (int i = from; i < text.length(); i++) {
            if (text.charAt(i) == '\\') {
                i++;
            } else if (text.charAt(i) == wanted) {
                return i;
            }
        }
        return -1;
    }

    private static String unescape(String value) {
        StringBuilder plain = new StringBuilder();
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c == '\\' && i + 1 < value.length()) {
                c = value.charAt(++i);
            }
            plain.append(c);
        }
        return plain.toString();
    }
}
