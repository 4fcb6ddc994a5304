package io.kopf4j.bench;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Samples of one metric in Prometheus' text format, as the API server's and the operator's
 * {@code /metrics} serve it: {@code name{label="value",...} number}, one a line. Only the lines of
 * the metric asked for are parsed: the API server's text is large and is read every half second
 * while the benchmark waits for the operator to settle.
 *
 * <pre>{@code
 * double running = PrometheusText.sum(operatorMetrics, "kopf4j_daemons_running", Map.of("kind", "daemon"));
 * for (PrometheusText.Sample sample : PrometheusText.samples(apiServerMetrics, "apiserver_request_total")) {
 *     String verb = sample.labels().get("verb");
 * }
 * }</pre>
 */
final class PrometheusText {
    private static final Pattern LABEL = Pattern.compile("(\\w+)=\"((?:[^\"\\\\]|\\\\.)*)\"");

    /**
     * One line: the metric's name, its labels, its value.
     *
     * <pre>{@code
     * // kopf4j_daemons_running{handler="accompany",kind="daemon"} 10001.0
     * new Sample("kopf4j_daemons_running", Map.of("handler", "accompany", "kind", "daemon"), 10001.0)
     * }</pre>
     */
    record Sample(String name, Map<String, String> labels, double value) {
    }

    private PrometheusText() {
    }

    /** The samples of the metric with this exact name (not those of {@code name_count} and the like). */
    static List<Sample> samples(String text, String name) {
        // The name must be followed by its labels or the value, so that "x" does not match "x_count".
        Pattern line = Pattern.compile("^" + Pattern.quote(name) + "(?:\\{(.*)})? (\\S+)(?: \\S+)?$", Pattern.MULTILINE);
        List<Sample> samples = new ArrayList<>();
        Matcher matcher = line.matcher(text);
        while (matcher.find()) {
            Map<String, String> labels = new LinkedHashMap<>();
            if (matcher.group(1) != null) {
                Matcher label = LABEL.matcher(matcher.group(1));
                while (label.find()) {
                    labels.put(label.group(1), label.group(2));
                }
            }
            samples.add(new Sample(name, labels, number(matcher.group(2))));
        }
        return samples;
    }

    /** The sum of the metric's samples whose labels include all of these (e.g. {@code kind="daemon"}). */
    static double sum(String text, String name, Map<String, String> labels) {
        return samples(text, name).stream().filter(sample -> sample.labels().entrySet().containsAll(labels.entrySet()))
                .mapToDouble(Sample::value).sum();
    }

    /** A sample's value or a histogram's {@code le}: a number, {@code +Inf}, {@code -Inf} or {@code NaN}. */
    static double number(String text) {
        return switch (text) {
            case "+Inf" -> Double.POSITIVE_INFINITY;
            case "-Inf" -> Double.NEGATIVE_INFINITY;
            default -> Double.parseDouble(text);
        };
    }
}
