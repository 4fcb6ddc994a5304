import io.kopf4j.AdmissionError;
import io.kopf4j.On;
import io.kopf4j.OperatorSettings;
import io.kopf4j.Patch;
import io.kopf4j.Spec;
import io.kopf4j.Status;
import io.kopf4j.kits.webhooks.WebhookAutoServer;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Kopf's example 17: validating and mutating admission webhooks, served by kopf4j's own HTTPS
 * server where the cluster reaches it, with a generated certificate, and the webhook configurations named
 * {@code auto.kopf.dev} created and kept up to date by kopf4j (see docs/admission.md).
 *
 *   ./kopf4j run --local-cluster --crd examples/crd.yaml examples/17-admission/AdmissionExample.java
 *   kubectl apply -f examples/obj.yaml                                    # spec.injected: 123 added
 *   kubectl patch kex kopf-example-1 --type merge -p '{"spec": {"field": "wrong"}}'
 *   # error: admission webhook "validate1.auto.kopf.dev" denied the request: Meh! I don't like it. Change the field.
 */
public class AdmissionExample {
    @On.Startup
    public void config(OperatorSettings settings) {
        // Kopf's final configuration: the best local server for the cluster (127.0.0.1 for a local
        // cluster; k3d, minikube, Docker Desktop), with a generated certificate. Other servers and
        // tunnels: docs/admission-servers.md.
        settings.admission.server = new WebhookAutoServer();
        settings.admission.managed = "auto.kopf.dev";
    }

    @On.Validate("kex")
    public void authhook(Map<String, String> headers, Map<String, Object> sslpeer, List<String> warnings) {
        String userAgent = headers.getOrDefault("User-Agent", "(unidentified)");   // names are case-insensitive
        warnings.add("Accessing as user-agent: " + userAgent);
        if (!(sslpeer.get("subject") instanceof List<?> subject) || subject.isEmpty()) {
            warnings.add("SSL peer is not identified.");
        } else {
            String commonName = ((List<?>) subject.get(0)).stream().map(pair -> (List<?>) pair)
                    .filter(pair -> "commonName".equals(pair.get(0))).map(pair -> String.valueOf(pair.get(1)))
                    .findFirst().orElse(null);
            warnings.add(commonName != null ? "SSL peer is " + commonName + "." : "SSL peer's common name is absent.");
        }
    }

    @On.Validate("kex")
    public void validate1(Spec spec, boolean dryrun) {
        if (!dryrun && "wrong".equals(spec.get("field"))) {
            throw new AdmissionError("Meh! I don't like it. Change the field.");
        }
    }

    @On.Validate(value = "kex", field = "spec.field", fieldValue = "not-allowed")
    public void validate2() {
        throw new AdmissionError("I'm too lazy anyway. Go away!", 555);
    }

    @On.Validate(value = "kex", subresource = "*")
    public void validate_subresources(Spec spec, String subresource, Status status, List<String> warnings) {
        if ("status".equals(subresource) && !Objects.equals(status.get("field"), spec.get("field"))) {
            throw new AdmissionError("status.field MUST be equal to spec.field!");
        } else if (subresource == null && !Objects.equals(status.get("field"), spec.get("field"))) {
            warnings.add("Also update status.field to match spec.field: " + repr(spec.get("field")) + " != "
                    + repr(status.get("field")));
        }
    }

    @On.Mutate(value = "kex", labels = "somelabel=somevalue")
    public void mutate1(Patch patch) {
        patch.spec().put("injected", 123);
    }

    /** Python's repr of a string or None, as Kopf's message shows the values. */
    private static String repr(Object value) {
        return value == null ? "None" : "'" + value + "'";
    }
}
