import io.kopf4j.Index;
import io.kopf4j.Indexer;
import io.kopf4j.On;
import io.kopf4j.Patch;
import io.kopf4j.Status;
import io.kopf4j.Timer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;

/**
 * Kopf's example 16: two indexes of pods, read by the probes and by a timer of every KopfExample.
 * The index ids are Kopf's, and so are the parameters that receive them. Kopf's tuple keys are lists
 * here: {@code [namespace, name]} and {@code [label, value]}.
 *
 *   ./kopf4j run --local-cluster --crd examples/crd.yaml --liveness http://0.0.0.0:8080/healthz \
 *       examples/16-indexing/IndexingExample.java
 *   kubectl apply -f examples/obj.yaml
 *   curl http://localhost:8080/healthz    # {"pod_count": ..., "pod_names": [...]}
 */
public class IndexingExample {
    /** Whether each pod runs: {@code {[namespace, name]: [true|false]}}. */
    @Indexer("pods")
    public Map<List<String>, Boolean> is_running(String namespace, String name, Status status) {
        return Map.of(List.of(namespace, name), "Running".equals(status.get("phase")));
    }

    /** The pods by each of their labels: {@code {[label, value]: [name, ...]}}. */
    @Indexer("pods")
    public Map<List<String>, String> by_label(Map<String, String> labels, String name) {
        Map<List<String>, String> keys = new LinkedHashMap<>();
        labels.forEach((label, value) -> keys.put(List.of(label, value), name));
        return keys;
    }

    @On.Probe
    public int pod_count(Index<List<String>, Boolean> is_running) {
        return is_running.size();
    }

    @On.Probe
    public List<String> pod_names(Index<List<String>, Boolean> is_running) {
        return is_running.keys().stream().map(key -> key.get(1)).sorted().toList();
    }

    @Timer(value = "kopfexamples", interval = 5)
    public void intervalled(Index<List<String>, Boolean> is_running, Index<List<String>, String> by_label,
                            Patch patch, Logger logger) {
        Map<List<String>, List<String>> labelled = new LinkedHashMap<>();
        by_label.forEach(key -> labelled.put(key, by_label.get(key).values()));
        logger.info("Pods by label: {}", labelled);
        List<String> running = new ArrayList<>();
        for (List<String> key : is_running.keys()) {
            boolean inSystemNamespaces = key.get(0).equals("kube-system") || key.get(0).equals("default");
            if (inSystemNamespaces && is_running.get(key).values().contains(true)) {
                running.add(key.get(0) + "::" + key.get(1));
            }
        }
        patch.status().put("running-pods", running);
    }
}
