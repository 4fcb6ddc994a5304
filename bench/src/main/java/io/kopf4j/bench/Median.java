package io.kopf4j.bench;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.ToDoubleFunction;

/**
 * Medians of repeated runs' figures (an even count takes the mean of the middle two).
 *
 * <pre>{@code
 * double seconds = Median.of(runs, PhaseResult::seconds);
 * }</pre>
 */
final class Median {
    private Median() {
    }

    static <T> double of(List<T> runs, ToDoubleFunction<T> figure) {
        double[] values = runs.stream().mapToDouble(figure).sorted().toArray();
        int middle = values.length / 2;
        return values.length % 2 == 1 ? values[middle] : (values[middle - 1] + values[middle]) / 2;
    }

    /** Per request key; a run without the key counts zero. */
    static ApiRequests ofRequests(List<ApiRequests> runs) {
        Map<String, Double> medians = new TreeMap<>();
        for (String key : new TreeSet<>(runs.stream().flatMap(run -> run.counts().keySet().stream()).toList())) {
            medians.put(key, of(runs, run -> run.get(key)));
        }
        return new ApiRequests(medians);
    }
}
