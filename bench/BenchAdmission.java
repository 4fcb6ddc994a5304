import io.kopf4j.AdmissionError;
import io.kopf4j.On;
import io.kopf4j.OperatorSettings;
import io.kopf4j.Patch;
import io.kopf4j.Spec;
import io.kopf4j.kits.webhooks.WebhookAutoServer;

/**
 * The admission benchmark's operator (bench/run-admission.sh): the seed's validating and mutating
 * handlers on kopf4j's HTTPS server at 127.0.0.1, with managed configurations. Objects labelled
 * {@code bench-no-webhook} are left out by the webhooks' object selector: the benchmark's floor.
 */
public class BenchAdmission {
    @On.Startup
    public void configure(OperatorSettings settings) {
        settings.admission.server = new WebhookAutoServer();
        settings.admission.managed = "bench.kopf4j.dev";
    }

    @On.Validate(value = "kopfexamples", labels = "!bench-no-webhook")
    public void validate(Spec spec) {
        if (spec.getInt("size", 0) > 100) {
            throw new AdmissionError("Size must be <= 100", 422);   // not 500: clients retry a 500
        }
    }

    @On.Mutate(value = "kopfexamples", labels = "!bench-no-webhook")
    public void setDefaults(Spec spec, Patch patch) {
        if (spec.get("field") == null) {
            patch.spec().put("field", "default");
        }
    }
}
