package io.kopf4j.bench;

import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;

/**
 * kopf4j's own measure of a timer's lateness, the histogram {@code kopf4j_timer_lag_seconds{handler}}
 * of the operator's {@code /metrics}, to cross-check the benchmark's probe: how late each run
 * started after the moment planned for it. It leaves out the time from a handler's return to the
 * plan of its next run, which the probe's gap includes, so it reads a little lower. The difference
 * of two readings gives a window's runs, mean lag, and an upper bound of a percentile (the bound of
 * the bucket it falls in).
 *
 * <pre>{@code
 * TimerLagMetrics before = TimerLagMetrics.read(metrics.get(), "tick");
 * Thread.sleep(30_000);
 * TimerLagMetrics window = TimerLagMetrics.read(metrics.get(), "tick").minus(before);
 * double p99AtMostMs = window.quantileUpperBound(0.99) * 1000;
 * }</pre>
 *
 * @param buckets cumulative counts by upper bound ({@code le}, seconds), {@code +Inf} last
 */
record TimerLagMetrics(double count, double sumSeconds, NavigableMap<Double, Double> buckets) {
    private static final String METRIC = "kopf4j_timer_lag_seconds";

    /** The handler's histogram in the operator's metrics text; all zero before its first run. */
    static TimerLagMetrics read(String metricsText, String handler) {
        Map<String, String> labels = Map.of("handler", handler);
        NavigableMap<Double, Double> buckets = new TreeMap<>();
        for (PrometheusText.Sample sample : PrometheusText.samples(metricsText, METRIC + "_bucket")) {
            if (handler.equals(sample.labels().get("handler"))) {
                buckets.merge(PrometheusText.number(sample.labels().get("le")), sample.value(), Double::sum);
            }
        }
        return new TimerLagMetrics(PrometheusText.sum(metricsText, METRIC + "_count", labels),
                PrometheusText.sum(metricsText, METRIC + "_sum", labels), buckets);
    }

    TimerLagMetrics minus(TimerLagMetrics earlier) {
        NavigableMap<Double, Double> difference = new TreeMap<>(buckets);
        earlier.buckets.forEach((bound, count) -> difference.merge(bound, -count, Double::sum));
        return new TimerLagMetrics(count - earlier.count, sumSeconds - earlier.sumSeconds, difference);
    }

    double meanSeconds() {
        return count == 0 ? Double.NaN : sumSeconds / count;
    }

    /** The smallest bucket bound with at least this fraction of the runs at or below it; NaN without runs. */
    double quantileUpperBound(double quantile) {
        for (Map.Entry<Double, Double> bucket : buckets.entrySet()) {
            if (count > 0 && bucket.getValue() >= quantile * count) {
                return bucket.getKey();
            }
        }
        return Double.NaN;
    }
}
