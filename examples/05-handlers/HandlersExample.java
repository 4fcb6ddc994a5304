import io.kopf4j.Diff;
import io.kopf4j.On;
import org.slf4j.Logger;

/**
 * Kopf's 05-handlers: several handlers of each kind for one resource, each run once per change.
 * The handlers of one cause run one after another, each with its own progress on the object.
 *
 *   ./kopf4j run --local-cluster --crd examples/crd.yaml examples/05-handlers/HandlersExample.java
 *   kubectl apply -f examples/obj.yaml
 *   kubectl patch kex kopf-example-1 --type merge -p '{"spec": {"field": "changed"}}'
 *   kubectl delete -f examples/obj.yaml
 *
 * The resume handlers run only for objects that exist, already handled, when the operator starts.
 * The handler ids are Kopf's (its function names); Kopf prints, kopf4j logs with the object's logger.
 */
public class HandlersExample {
    @On.Resume(value = "kopfexamples", id = "resume_fn_1")
    public void resume1(Logger logger) {
        logger.info("RESUMED 1st");
    }

    @On.Create(value = "kopfexamples", id = "create_fn_1")
    public void create1(Logger logger) {
        logger.info("CREATED 1st");
    }

    @On.Resume(value = "kopfexamples", id = "resume_fn_2")
    public void resume2(Logger logger) {
        logger.info("RESUMED 2nd");
    }

    @On.Create(value = "kopfexamples", id = "create_fn_2")
    public void create2(Logger logger) {
        logger.info("CREATED 2nd");
    }

    @On.Update(value = "kopfexamples", id = "update_fn")
    public void update(Object old, Object current, Diff diff, Logger logger) {
        logger.info("UPDATED");
    }

    @On.Delete(value = "kopfexamples", id = "delete_fn_1")
    public void delete1(Logger logger) {
        logger.info("DELETED 1st");
    }

    @On.Delete(value = "kopfexamples", id = "delete_fn_2")
    public void delete2(Logger logger) {
        logger.info("DELETED 2nd");
    }

    /** Its id is {@code field_fn/spec.field}, as Kopf's; it runs on creation too, with {@code old} null. */
    @On.Field(value = "kopfexamples", id = "field_fn", field = "spec.field")
    public void field(Object old, Object current, Logger logger) {
        logger.info("FIELD CHANGED: {} -> {}", old, current);
    }
}
