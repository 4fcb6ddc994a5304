import io.kopf4j.ErrorsMode;
import io.kopf4j.On;
import io.kopf4j.PermanentError;
import io.kopf4j.TemporaryError;
import java.time.Duration;

/**
 * Kopf's 03-exceptions: how handlers fail, for good or to be retried, and what each way logs.
 *
 *   ./kopf4j run --local-cluster --crd examples/crd.yaml examples/03-exceptions/ExceptionsExample.java
 *   kubectl apply -f examples/obj.yaml
 *
 * The handler ids are Kopf's, so that the progress annotations are the ones Kopf writes.
 */
public class ExceptionsExample {
    /** An error of the application's own, not one of kopf4j's: retried or not as {@code errors} says. */
    public static class MyException extends RuntimeException {
        public MyException(String message) {
            super(message);
        }
    }

    /** A PermanentError: logged with its message only, never retried. */
    @On.Create(value = "kopfexamples", id = "instant_failure_with_only_a_message")
    public void instantFailureWithOnlyAMessage() {
        throw new PermanentError("Fail once and for all.");
    }

    /** A TemporaryError: retried after its delay; succeeds on the 4th attempt (retry 3). */
    @On.Create(value = "kopfexamples", id = "eventual_success_with_a_few_messages")
    public void eventualSuccessWithAFewMessages(int retry) {
        if (retry < 3) {
            throw new TemporaryError("Expected recoverable error.", Duration.ofSeconds(1));
        }
    }

    /** Any other exception: retried after the backoff, with its stack trace, until 3 retries are used up. */
    @On.Create(value = "kopfexamples", id = "eventual_failure_with_tracebacks", retries = 3, backoff = 1.0)
    public void eventualFailureWithTracebacks() {
        throw new MyException("An error that is supposed to be recoverable.");
    }

    /** Any other exception in the PERMANENT errors mode: fails for good at once, with its stack trace. */
    @On.Create(value = "kopfexamples", id = "instant_failure_with_traceback", errors = ErrorsMode.PERMANENT, backoff = 1.0)
    public void instantFailureWithTraceback() {
        throw new MyException("An error that is supposed to be recoverable.");
    }
}
