package io.kopf4j.testing;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

@KopfTest(crds = "../examples/crd.yaml", handlers = ExampleOperator.class)
class ExampleOperatorTest {
    @Test
    void storesTheResultAndReleasesTheObject(KopfHarness kopf) {
        kopf.apply(Path.of("../examples/obj.yaml"));
        kopf.awaitLogged(kopf.about("kopf-example-1") + "Handler 'create' succeeded.");
        GenericKubernetesResource stored = kopf.await("kopf.dev/v1", "KopfExample", "kopf-example-1",
                object -> object.getAdditionalProperties().get("status") != null);
        assertThat(stored.getAdditionalProperties().get("status"))
                .isEqualTo(Map.of("create", Map.of("message", "hello, kopf-example-1")));

        kopf.delete("kopf.dev/v1", "KopfExample", "kopf-example-1");   // returns once the object is gone
        assertThat(kopf.successCounts()).containsEntry("create", 1).containsEntry("delete", 1);
        assertThat(kopf.failureCounts()).isEmpty();
    }
}
