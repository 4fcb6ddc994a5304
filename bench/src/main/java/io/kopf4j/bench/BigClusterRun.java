package io.kopf4j.bench;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One operator's figures in the big-cluster benchmark ({@link BigClusterBenchmark}), or their
 * medians over repeated runs: seconds from the spawn until ready (the probe Pod handled; kopf4j's
 * {@code /readyz} beside it, NaN for Kopf) and until its CPU is quiet, the RSS 5 s after that, the
 * seconds to handle the M Pods' creation and their deletion, CPU seconds and peak RSS from the spawn
 * to the end, and its traffic from the spawn to its exit: requests by verb and resource, the bytes
 * received from the API server and sent to it (through {@link ByteCountingProxy}), and the bytes
 * of the API server's answers to GET and LIST by verb and resource ({@code apiserver_response_sizes},
 * every client's in that time; the benchmark reads none).
 */
record BigClusterRun(String operator, double ready, double readyz, double idle, double idleRss, double create, double delete,
                     double cpu, double peakRss, ApiRequests requests, int handledPods, double receivedMiB, double sentMiB,
                     ApiRequests answersMiB) {

    /** The medians of each figure over repeated runs of one operator. */
    static BigClusterRun median(List<BigClusterRun> runs) {
        return new BigClusterRun(runs.getFirst().operator, Median.of(runs, BigClusterRun::ready), Median.of(runs, BigClusterRun::readyz),
                Median.of(runs, BigClusterRun::idle), Median.of(runs, BigClusterRun::idleRss), Median.of(runs, BigClusterRun::create),
                Median.of(runs, BigClusterRun::delete), Median.of(runs, BigClusterRun::cpu), Median.of(runs, BigClusterRun::peakRss),
                Median.ofRequests(runs.stream().map(BigClusterRun::requests).toList()), runs.getFirst().handledPods,
                Median.of(runs, BigClusterRun::receivedMiB), Median.of(runs, BigClusterRun::sentMiB),
                Median.ofRequests(runs.stream().map(BigClusterRun::answersMiB).toList()));
    }

    /** A run's line of progress. */
    String line() {
        return BigClusterBenchmark.format("M handled in %.1f s, deleted in %.1f s; CPU %.1f s; peak RSS %.0f MiB; received %.1f MiB,"
                + " sent %.1f MiB; answers to GET and LIST: %s MiB; requests: %s", create, delete, cpu, peakRss, receivedMiB, sentMiB,
                answersMiB.format("%.2f"), requests.format("%.0f"));
    }

    /** The figures as numbers, for the result file. */
    Map<String, Object> figures() {
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("operator", operator);
        row.put("m", handledPods - 1);
        row.put("create_s", create);
        row.put("delete_s", delete);
        row.put("ready_s", ready);
        if (!Double.isNaN(readyz)) {
            row.put("readyz_s", readyz);
        }
        row.put("idle_s", idle);
        row.put("idle_rss_mib", idleRss);
        row.put("peak_rss_mib", peakRss);
        row.put("cpu_s", cpu);
        row.put("received_mib", receivedMiB);
        row.put("sent_mib", sentMiB);
        row.put("list_pods_mib", answersMiB.get(ApiRequests.key("LIST", "pods", "")));
        row.put("list_pods", requests.get(ApiRequests.key("LIST", "pods", "")));
        row.put("watch_pods", requests.get(ApiRequests.key("WATCH", "pods", "")));
        row.put("requests", requests.total());
        row.put("writes_per_pod", podWrites().total() / handledPods);
        return row;
    }

    /** The writes to the Pods and the Events: those the handled Pods cause. */
    ApiRequests podWrites() {
        return requests.writes().only(key -> key.endsWith(" pods") || key.endsWith(" events"));
    }

    /** The markdown table of the runs (or their medians), one row per operator. */
    static String table(int n, int m, int repeats, List<BigClusterRun> runs) {
        StringBuilder table = new StringBuilder(BigClusterBenchmark.format("### N = %,d Pods, M = %d of them handled%s%n%n", n, m,
                repeats > 1 ? ", median of " + repeats + " runs" : ""));
        table.append("| operator | M created → handled s | M deleted → gone s | ready s (/readyz) | CPU quiet s | idle RSS MiB"
                + " | peak RSS MiB | CPU s | received MiB (sent) | answers to LIST, GET MiB | writes per handled Pod | other requests |\n");
        table.append("|---|---|---|---|---|---|---|---|---|---|---|---|\n");
        for (BigClusterRun run : runs) {
            table.append(BigClusterBenchmark.format("| %s | %.1f | %.1f | %.1f%s | %.1f | %.0f | %.0f | %.1f | %.1f (%.1f) | %s | %s | %s |%n",
                    run.operator, run.create, run.delete, run.ready, Double.isNaN(run.readyz) ? "" : BigClusterBenchmark.format(" (%.1f)", run.readyz),
                    run.idle, run.idleRss, run.peakRss, run.cpu, run.receivedMiB, run.sentMiB, run.answersMiB.format("%.2f"),
                    run.podWrites().dividedBy(run.handledPods).format("%.2f"), run.requests.minus(run.podWrites()).format("%.0f")));
        }
        return table.toString();
    }
}
