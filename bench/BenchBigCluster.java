import io.kopf4j.On;

/**
 * The big-cluster benchmark's operator (bench/run-big.sh): handlers of the Pods labelled
 * bench=handled only, among thousands that are not. The label filter is the handlers' own, applied
 * in the operator to every Pod it lists and watches, as Kopf's labels= is. A no-op delete handler,
 * so that the handled Pods get a finalizer. Add bench/BenchBigClusterSelector.java for the API
 * server to filter instead.
 */
public class BenchBigCluster {
    @On.Create(value = "pods", labels = "bench=handled")
    public void create() {
    }

    @On.Delete(value = "pods", labels = "bench=handled")
    public void delete() {
    }
}
