package io.kopf4j.internal.selection;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * A Kubernetes label selector in its text form, as {@code kubectl -l} and the API server's
 * {@code labelSelector} take it: requirements joined by commas, all of which must hold:
 * {@code app=web}, {@code app==web}, {@code tier!=test}, {@code env in (prod, staging)},
 * {@code env notin (dev)}, {@code managed} (present), {@code !legacy} (absent), {@code replicas>2}
 * and {@code <} (integers). Parsed here, rather than left to the API server, so that a typo fails
 * the start with one error naming the setting instead of every listing with a 400, and so that the
 * operator can check an object it got from elsewhere (a re-read) against the same selection. The
 * grammar is apimachinery's {@code labels.Parse}; fabric8 only passes the text through.
 *
 * <pre>{@code
 * LabelSelector selector = LabelSelector.parse("app=web,env in (prod,staging)");
 * selector.matches(Map.of("app", "web", "env", "prod"));   // true
 * }</pre>
 */
public final class LabelSelector {
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?");
    private static final Pattern PREFIX = Pattern.compile("[a-z0-9]([-a-z0-9.]{0,251}[a-z0-9])?");
    private static final Pattern VALUE = Pattern.compile("([A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?)?");

    private final String text;
    private final List<Requirement> requirements;

    private LabelSelector(String text, List<Requirement> requirements) {
        this.text = text;
        this.requirements = List.copyOf(requirements);
    }

    /** One condition on one label. */
    private record Requirement(String key, String operator, Set<String> values) {
        boolean test(Map<String, String> labels) {
            String actual = labels.get(key);
            return switch (operator) {
                case "exists" -> actual != null;
                case "!" -> actual == null;
                case "=", "==", "in" -> actual != null && values.contains(actual);
                case "!=", "notin" -> actual == null || !values.contains(actual);
                case ">" -> integer(actual) != null && integer(actual) > integer(values.iterator().next());
                case "<" -> integer(actual) != null && integer(actual) < integer(values.iterator().next());
                default -> throw new IllegalStateException(operator);
            };
        }

        private static Long integer(String text) {
            try {
                return text == null ? null : Long.parseLong(text);
            } catch (NumberFormatException e) {
                return null;
            }
        }
    }

    /**
     * @throws IllegalArgumentException saying what is wrong and where, e.g.
     *     {@code expected ')' after the values of 'env' at 18}
     */
    public static LabelSelector parse(String text) {
        if (text == null || text.isBlank()) {
            throw new IllegalArgumentException("is empty: it would select every object");
        }
        return new LabelSelector(text.strip(), new Parser(text).requirements());
    }

    /** Whether an object's labels (never null; empty when it has none) satisfy every requirement. */
    public boolean matches(Map<String, String> labels) {
        return requirements.stream().allMatch(requirement -> requirement.test(labels));
    }

    /** The selector as given, for the API server's {@code labelSelector} parameter. */
    @Override
    public String toString() {
        return text;
    }

    /** A recursive-descent reading of apimachinery's grammar; positions in errors are 1-based. */
    private static final class Parser {
        private final String text;
        private int at;

        Parser(String text) {
            this.text = text;
        }

        List<Requirement> requirements() {
            List<Requirement> requirements = new ArrayList<>();
            do {
                requirements.add(requirement());
                spaces();
            } while (take(","));
            if (at < text.length()) {
                throw error("unexpected '" + text.charAt(at) + "'");
            }
            return requirements;
        }

        private Requirement requirement() {
            spaces();
            if (take("!")) {
                return new Requirement(key(), "!", Set.of());
            }
            String key = key();
            spaces();
            for (String operator : List.of("==", "!=", "=", ">", "<")) {
                if (take(operator)) {
                    String value = value(key);
                    if ((operator.equals(">") || operator.equals("<")) && !value.matches("-?\\d{1,18}")) {
                        throw error("'" + operator + "' needs an integer value for '" + key + "', not '" + value + "'");
                    }
                    return new Requirement(key, operator, Set.of(value));
                }
            }
            int mark = at;
            String word = word();
            if (word.equals("in") || word.equals("notin")) {
                return new Requirement(key, word, values(key));
            }
            at = mark;
            if (at < text.length() && text.charAt(at) != ',') {
                throw error("expected an operator (=, ==, !=, in, notin, >, <) after '" + key + "'");
            }
            return new Requirement(key, "exists", Set.of());
        }

        private Set<String> values(String key) {
            spaces();
            if (!take("(")) {
                throw error("expected '(' after 'in' or 'notin' of '" + key + "'");
            }
            List<String> values = new ArrayList<>();
            do {
                values.add(value(key));
                spaces();
            } while (take(","));
            if (!take(")")) {
                throw error("expected ')' after the values of '" + key + "'");
            }
            return Set.copyOf(values);
        }

        private String key() {
            spaces();
            int start = at;
            String key = word();
            int slash = key.indexOf('/');
            String name = slash < 0 ? key : key.substring(slash + 1);
            if (key.isEmpty() || !NAME.matcher(name).matches()
                    || slash >= 0 && !PREFIX.matcher(key.substring(0, slash)).matches()) {
                at = start;
                throw error(key.isEmpty() ? "expected a label key" : "'" + key + "' is no label key");
            }
            return key;
        }

        private String value(String key) {
            spaces();
            String value = word();
            if (!VALUE.matcher(value).matches()) {
                throw error("'" + value + "' is no label value (of '" + key + "')");
            }
            return value;
        }

        /** Letters up to the next space, operator or punctuation. */
        private String word() {
            int start = at;
            while (at < text.length() && " \t,=!<>()".indexOf(text.charAt(at)) < 0) {
                at++;
            }
            return text.substring(start, at);
        }

        private boolean take(String token) {
            if (text.startsWith(token, at)) {
                at += token.length();
                return true;
            }
            return false;
        }

        private void spaces() {
            while (at < text.length() && Character.isWhitespace(text.charAt(at))) {
                at++;
            }
        }

        private IllegalArgumentException error(String what) {
            return new IllegalArgumentException(what + " at " + (at + 1));
        }
    }
}
