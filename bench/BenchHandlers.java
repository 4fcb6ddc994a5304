import io.kopf4j.On;
import io.kopf4j.Spec;
import java.util.Map;

/** The benchmarked operator: a create handler with a result, an update handler, a no-op delete handler. */
public class BenchHandlers {
    @On.Create("kopfexamples")
    public Map<String, Object> create(Spec spec) {
        return Map.of("generation", spec.get("generation"));
    }

    @On.Update("kopfexamples")
    public Map<String, Object> update(Spec spec) {
        return Map.of("generation", spec.get("generation"));
    }

    @On.Delete("kopfexamples")
    public void delete() {
    }
}
