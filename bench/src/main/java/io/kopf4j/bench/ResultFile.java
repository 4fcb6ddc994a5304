package io.kopf4j.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A benchmark's figures for one N as a JSON file beside its markdown table, for {@code bench/charts.py}:
 * {@code bench/results/BENCHMARK-N-TIME.json} (or in {@code $KOPF4J_BENCH_RESULTS}), one row per
 * operator measured, each figure a number under a name with its unit ({@code ready_s}, {@code peak_rss_mib}).
 * The files of the figures that docs/performance.md shows are committed.
 *
 * <pre>{@code
 * ResultFile file = new ResultFile("startup", 1000, "2 CPUs; Kubernetes v1.20.2");
 * file.row(Map.of("operator", "kopf4j", "ready_s", 1.6));
 * Path written = file.write(root);
 * }</pre>
 */
final class ResultFile {
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
    private static final DateTimeFormatter FILE_TIME = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss").withZone(ZoneOffset.UTC);

    private final String benchmark;
    private final int n;
    private final String conditions;
    private final Instant measured = Instant.now();
    private final List<Map<String, Object>> rows = new ArrayList<>();

    ResultFile(String benchmark, int n, String conditions) {
        this.benchmark = benchmark;
        this.n = n;
        this.conditions = conditions;
    }

    ResultFile row(Map<String, Object> figures) {
        rows.add(figures);
        return this;
    }

    /** Writes the file; {@return its path} */
    Path write(Path root) throws IOException {
        String directory = System.getenv().getOrDefault("KOPF4J_BENCH_RESULTS", "");
        Path results = directory.isEmpty() ? root.resolve("bench/results") : Path.of(directory);
        Path file = Files.createDirectories(results).resolve(benchmark + "-" + n + "-" + FILE_TIME.format(measured) + ".json");
        Map<String, Object> content = new LinkedHashMap<>();
        content.put("benchmark", benchmark);
        content.put("n", n);
        content.put("date", measured.toString());
        content.put("source", "measured");
        content.put("conditions", conditions);
        content.put("rows", rows);
        JSON.writeValue(file.toFile(), content);
        return file;
    }
}
