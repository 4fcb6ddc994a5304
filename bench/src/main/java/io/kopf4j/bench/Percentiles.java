package io.kopf4j.bench;

import java.util.Arrays;

/**
 * Nearest-rank percentiles of a sample, e.g. of per-object latencies: the value that at least
 * that fraction of the sample does not exceed, always one of the sample's values. (Not
 * {@link Median}, which averages the middle two of repeated runs' figures.)
 *
 * <pre>{@code
 * Percentiles latencies = Percentiles.of(new double[] {0.2, 0.4, 3.1});
 * double p50 = latencies.at(0.50);   // 0.4
 * double max = latencies.max();      // 3.1
 * }</pre>
 */
final class Percentiles {
    private final double[] sorted;

    private Percentiles(double[] sorted) {
        this.sorted = sorted;
    }

    static Percentiles of(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        return new Percentiles(sorted);
    }

    /** The value at this quantile, in (0, 1]: {@code at(0.99)} is the p99; NaN for an empty sample. */
    double at(double quantile) {
        if (sorted.length == 0) {
            return Double.NaN;
        }
        int rank = (int) Math.ceil(quantile * sorted.length);
        return sorted[Math.clamp(rank - 1, 0, sorted.length - 1)];
    }

    double max() {
        return at(1.0);
    }

    int count() {
        return sorted.length;
    }
}
