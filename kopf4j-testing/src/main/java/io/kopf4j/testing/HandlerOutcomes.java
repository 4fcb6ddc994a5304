package io.kopf4j.testing;

import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Counts handlers' outcomes in an operator's log output, as Kopf's end-to-end test of its examples
 * does ({@code tests/e2e/test_examples.py}): for a {@link KopfRunner}'s output, or the log of an
 * operator run as a separate process.
 *
 * <pre>{@code
 * assertThat(HandlerOutcomes.successes(runner.output())).containsEntry("create_fn", 1);
 * assertThat(HandlerOutcomes.failures(runner.output())).isEmpty();
 * }</pre>
 */
public final class HandlerOutcomes {
    /*
     * Kopf's E2E patterns, anchored to the start of a message (a line, or after the level's or the
     * object's bracket), so that the same words inside a logged body (a progress annotation's
     * message, in "Creation is in progress: {...}") are not counted again.
     */
    private static final String OUTCOME = "(?m)(?:^|\\] )(?:Handler|Activity|Daemon|Timer) '([^']+)' ";
    private static final Pattern SUCCESS = Pattern.compile(OUTCOME + "succeeded");
    private static final Pattern FAILURE = Pattern.compile(OUTCOME + "failed (?:permanently|with an exception and will stop)");

    private HandlerOutcomes() {
    }

    /**
     * {@return how many times each handler, activity, daemon or timer logged {@code '<id>' succeeded}}
     *
     * @param output an operator's log lines in Kopf's formats
     */
    public static Map<String, Integer> successes(String output) {
        return count(SUCCESS, output);
    }

    /**
     * {@return how many times each failed for good (Kopf's E2E failure pattern)}
     *
     * @param output an operator's log lines in Kopf's formats
     */
    public static Map<String, Integer> failures(String output) {
        return count(FAILURE, output);
    }

    private static Map<String, Integer> count(Pattern pattern, String output) {
        Map<String, Integer> counts = new TreeMap<>();
        Matcher matcher = pattern.matcher(output);
        while (matcher.find()) {
            counts.merge(matcher.group(1), 1, Integer::sum);
        }
        return counts;
    }
}
