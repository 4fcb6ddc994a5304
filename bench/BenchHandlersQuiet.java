import io.kopf4j.On;
import io.kopf4j.OperatorSettings;

/**
 * Added to bench/BenchHandlers.java for the benchmark's kopf4j-quiet operator: the object loggers'
 * lines are not posted as Kubernetes Events (Kopf's newest default), to show what posting costs.
 */
public class BenchHandlersQuiet {
    @On.Startup
    public void configure(OperatorSettings settings) {
        settings.posting.loggers = false;
    }
}
