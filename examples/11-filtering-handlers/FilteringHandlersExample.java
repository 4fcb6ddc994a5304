import io.kopf4j.Daemon;
import io.kopf4j.DaemonStopped;
import io.kopf4j.Filter;
import io.kopf4j.HandlerContext;
import io.kopf4j.On;
import java.time.Duration;
import org.slf4j.Logger;

/**
 * Kopf's 11-filtering-handlers: handlers that run only for objects with certain labels,
 * annotations or field values, or for which a filter of yours says yes.
 *
 *   ./kopf4j run --local-cluster --crd examples/crd.yaml examples/11-filtering-handlers/FilteringHandlersExample.java
 *   kubectl apply -f examples/obj.yaml
 *   kubectl patch kex kopf-example-1 --type merge -p '{"spec": {"field": "changed"}}'
 *
 * Labels and annotations are {@code "key=value"} (that value), {@code "key"} (present) or
 * {@code "!key"} (absent). Kopf's callbacks on one label's or annotation's value
 * ({@code labels={'somelabel': say_yes}}) are {@link Filter}s here ({@code when = SayYes.class}),
 * as Java annotations cannot hold functions; they read the value themselves.
 */
public class FilteringHandlersExample {
    /** Kopf's {@code say_yes}, on the label {@code somelabel}. */
    public static class SayYes implements Filter {
        @Override
        public boolean test(HandlerContext context) {
            return "somevalue".equals(context.labels().get("somelabel")) && context.spec().get("field") != null;
        }
    }

    /** Kopf's {@code say_no}, on the annotation {@code someannotation}. */
    public static class SayNo implements Filter {
        @Override
        public boolean test(HandlerContext context) {
            return "somevalue".equals(context.annotations().get("someannotation"))
                    && "not-this-value-for-sure".equals(context.spec().get("field"));
        }
    }

    /** Kopf's {@code when=lambda body, **_: True}. */
    public static class Always implements Filter {
        @Override
        public boolean test(HandlerContext context) {
            return true;
        }
    }

    /** Kopf's {@code when=lambda body, **_: False}. */
    public static class Never implements Filter {
        @Override
        public boolean test(HandlerContext context) {
            return false;
        }
    }

    @On.Create(value = "kopfexamples", id = "create_with_labels_matching", labels = "somelabel=somevalue")
    public void labelsMatching(Logger logger) {
        logger.info("Label is matching.");
    }

    @On.Create(value = "kopfexamples", id = "create_with_labels_present", labels = "somelabel")
    public void labelsPresent(Logger logger) {
        logger.info("Label is present.");
    }

    @On.Create(value = "kopfexamples", id = "create_with_labels_absent", labels = "!nonexistent")
    public void labelsAbsent(Logger logger) {
        logger.info("Label is absent.");
    }

    @On.Create(value = "kopfexamples", id = "create_with_labels_callback_matching", when = SayYes.class)
    public void labelsCallbackMatching(Logger logger) {
        logger.info("Label callback matching.");
    }

    @On.Create(value = "kopfexamples", id = "create_with_annotations_matching", annotations = "someannotation=somevalue")
    public void annotationsMatching(Logger logger) {
        logger.info("Annotation is matching.");
    }

    @On.Create(value = "kopfexamples", id = "create_with_annotations_present", annotations = "someannotation")
    public void annotationsPresent(Logger logger) {
        logger.info("Annotation is present.");
    }

    @On.Create(value = "kopfexamples", id = "create_with_annotations_absent", annotations = "!nonexistent")
    public void annotationsAbsent(Logger logger) {
        logger.info("Annotation is absent.");
    }

    @On.Create(value = "kopfexamples", id = "create_with_annotations_callback_matching", when = SayNo.class)
    public void annotationsCallbackMatching(Logger logger) {
        logger.info("Annotation callback mismatch.");
    }

    @On.Create(value = "kopfexamples", id = "create_with_filter_satisfied", when = Always.class)
    public void filterSatisfied(Logger logger) {
        logger.info("Filter satisfied.");
    }

    @On.Create(value = "kopfexamples", id = "create_with_filter_not_satisfied", when = Never.class)
    public void filterNotSatisfied(Logger logger) {
        logger.info("Filter not satisfied.");
    }

    @On.Create(value = "kopfexamples", id = "create_with_field_value_satisfied", field = "spec.field", fieldValue = "value")
    public void fieldValueSatisfied(Logger logger) {
        logger.info("Field value is satisfied.");
    }

    @On.Create(value = "kopfexamples", id = "create_with_field_value_not_satisfied", field = "spec.field",
            fieldValue = "something-else")
    public void fieldValueNotSatisfied(Logger logger) {
        logger.info("Field value is not satisfied.");
    }

    @On.Create(value = "kopfexamples", id = "create_with_field_presence_satisfied", field = "spec.field",
            fieldValue = Filter.PRESENT)
    public void fieldPresenceSatisfied(Logger logger) {
        logger.info("Field presence is satisfied.");
    }

    @On.Create(value = "kopfexamples", id = "create_with_field_presence_not_satisfied", field = "spec.inexistent",
            fieldValue = Filter.PRESENT)
    public void fieldPresenceNotSatisfied(Logger logger) {
        logger.info("Field presence is not satisfied.");
    }

    @On.Update(value = "kopfexamples", id = "update_with_field_change_satisfied", field = "spec.field",
            oldValue = "value", newValue = "changed")
    public void fieldChangeSatisfied(Logger logger) {
        logger.info("Field change is satisfied.");
    }

    /** Runs while {@code spec.field} is {@code value}: stopped when it changes, or when the object is deleted. */
    @Daemon(value = "kopfexamples", id = "daemon_with_field", field = "spec.field", fieldValue = "value")
    public void daemonWithField(DaemonStopped stopped, Logger logger) {
        while (!stopped.isSet()) {
            logger.info("Field daemon is satisfied.");
            stopped.await(Duration.ofSeconds(1));
        }
    }
}
