import io.kopf4j.On;
import io.kopf4j.OperatorSettings;

/**
 * Added to bench/BenchBigCluster.java for the big-cluster benchmark's kopf4j-selector operator: the
 * API server's label selector on the Pods' listing and watch, so that the operator receives only the
 * Pods its handlers are for.
 */
public class BenchBigClusterSelector {
    @On.Startup
    public void configure(OperatorSettings settings) {
        settings.watching.labelSelectors.put("pods", "bench=handled");
    }
}
