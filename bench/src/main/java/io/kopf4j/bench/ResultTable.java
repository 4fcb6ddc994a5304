package io.kopf4j.bench;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The benchmark's summary for one N as a markdown table, one row per operator, the phases' seconds
 * also as multiples of the floor's.
 *
 * <pre>{@code
 * System.out.println(ResultTable.render(1000, 1, List.of(floor, kopf4j)));
 * }</pre>
 */
final class ResultTable {
    private ResultTable() {
    }

    static String render(int n, int repeats, List<RunResult> results) {
        Optional<RunResult> floor = results.stream().filter(result -> result.operator() == OperatorKind.FLOOR).findFirst();
        StringBuilder table = new StringBuilder("### N = " + n + (repeats > 1 ? ", median of " + repeats + " runs" : "") + "\n\n");
        table.append("| operator | create s (×floor) | update s (×floor) | delete s (×floor) | writes per object C; U; D"
                + " | Events POSTs per object C / U / D | CPU s total (create) | peak RSS MiB | idle RSS after create MiB"
                + " (KiB/object) | RSS MiB after start-up → at rest after the load | start-up s | settle s C / U / D |\n");
        table.append("|---|---|---|---|---|---|---|---|---|---|---|---|\n");
        for (RunResult result : results) {
            table.append("| ").append(result.operator().label());
            for (Phase phase : Phase.values()) {
                table.append(" | ").append(seconds(result, floor, phase));
            }
            table.append(" | ").append(perPhase(result, "; ", phase -> phase.label().substring(0, 1).toUpperCase(Locale.ROOT)
                    + ": " + writes(result.phases().get(phase).requestsPerObject())));
            table.append(" | ").append(perPhase(result, " / ", phase -> format("%.2f",
                    result.phases().get(phase).requestsPerObject().get(ApiRequests.key("POST", "events", "")))));
            table.append(" | ").append(format("%.1f (%.1f)", result.phases().get(Phase.DELETE).cumulativeCpuSeconds(),
                    result.phases().get(Phase.CREATE).cpuSeconds()));
            table.append(" | ").append(format("%.0f", result.phases().get(Phase.DELETE).peakRssMiB()));
            table.append(" | ").append(format("%.0f (%+.1f)", result.idleRssMiB(), result.idleKiBPerObject()));
            table.append(" | ").append(format("%.0f → %.0f", result.startupRssMiB(), result.restRssMiB()));
            table.append(" | ").append(format("%.1f", result.startupSeconds()));
            table.append(" | ").append(perPhase(result, " / ", phase -> format("%.1f", result.phases().get(phase).settleSeconds())));
            table.append(" |\n");
        }
        return table.toString();
    }

    /** The same figures as numbers, for {@code bench/charts.py} (see {@link ResultFile}). */
    static ResultFile file(int n, int repeats, List<RunResult> results, String conditions) {
        Optional<RunResult> floor = results.stream().filter(result -> result.operator() == OperatorKind.FLOOR).findFirst();
        ResultFile file = new ResultFile("load", n, conditions + (repeats > 1 ? "; median of " + repeats + " runs" : ""));
        for (RunResult result : results) {
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("operator", result.operator().label());
            for (Phase phase : Phase.values()) {
                double seconds = result.phases().get(phase).seconds();
                row.put(phase.label() + "_s", seconds);
                floor.ifPresent(base -> row.put(phase.label() + "_ratio", seconds / base.phases().get(phase).seconds()));
            }
            row.put("cpu_s", result.phases().get(Phase.DELETE).cumulativeCpuSeconds());
            row.put("cpu_create_s", result.phases().get(Phase.CREATE).cpuSeconds());
            row.put("peak_rss_mib", result.phases().get(Phase.DELETE).peakRssMiB());
            row.put("idle_rss_mib", result.idleRssMiB());
            row.put("startup_rss_mib", result.startupRssMiB());
            row.put("rest_rss_mib", result.restRssMiB());
            row.put("startup_s", result.startupSeconds());
            file.row(row);
        }
        return file;
    }

    private static String seconds(RunResult result, Optional<RunResult> floor, Phase phase) {
        double seconds = result.phases().get(phase).seconds();
        return floor.map(base -> format("%.1f (×%.2f)", seconds, seconds / base.phases().get(phase).seconds()))
                .orElse(format("%.1f", seconds));
    }

    /** E.g. {@code 2.00 (PATCH 1.00, PATCH status 1.00)}. */
    private static String writes(ApiRequests perObject) {
        ApiRequests writes = perObject.objectWrites();
        return format("%.2f", writes.total()) + " (" + writes.format()
                .replace(" kopfexamples/", " ").replace(" kopfexamples", "") + ")";
    }

    private static String perPhase(RunResult result, String separator, Function<Phase, String> cell) {
        return Stream.of(Phase.values()).map(cell).collect(Collectors.joining(separator));
    }

    private static String format(String pattern, Object... values) {
        return String.format(Locale.ROOT, pattern, values);
    }
}
