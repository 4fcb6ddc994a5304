import io.kopf4j.HandlerContext;
import io.kopf4j.On;
import io.kopf4j.Spec;

/**
 * Kopf's 07-subhandlers: a handler that registers one sub-handler per item of the spec. Each
 * sub-handler has its own id ({@code create_fn/item1}), progress, retries and result.
 *
 *   ./kopf4j run --local-cluster --crd examples/crd.yaml examples/07-subhandlers/SubhandlersExample.java
 *   kubectl apply -f examples/obj.yaml
 *
 * The parent is called again until all its sub-handlers have finished, so it registers the same
 * sub-handlers every time and does nothing else.
 */
public class SubhandlersExample {
    @On.Create(value = "kopfexamples", id = "create_fn")
    public void create(Spec spec, HandlerContext context) {
        for (Object item : spec.getList("items")) {
            context.register(String.valueOf(item),
                    subhandler -> {
                        subhandler.logger().info("=== Handling creation for {}. ===", item);
                        return null;
                    });
        }
    }
}
