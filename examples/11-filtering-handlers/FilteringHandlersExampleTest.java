import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.kopf4j.envtest.LocalCluster;
import io.kopf4j.envtest.LocalClusterExtension;
import io.kopf4j.envtest.TemporaryNamespace;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Runs examples/11-filtering-handlers as Kopf's test_example_11.py does, against a real API
 * server: create, change spec.field, delete; only the handlers whose filters match have run.
 */
@ExtendWith(LocalClusterExtension.class)
class FilteringHandlersExampleTest {
    @Test
    void onlyTheHandlersWhoseFiltersMatchRunOnceEach(LocalCluster cluster, TemporaryNamespace namespace) {
        try (ExampleRun run = ExampleRun.start(cluster, namespace, "11-filtering-handlers/FilteringHandlersExample.java")) {
            run.createObject();
            run.awaitOutput("Creation is processed:");
            run.awaitOutput("Field daemon is satisfied.");
            cluster.client().genericKubernetesResources("kopf.dev/v1", "KopfExample").inNamespace(namespace.name())
                    .withName(ExampleRun.OBJECT)
                    .edit(object -> changeField(object, "changed"));
            run.awaitOutput("Field change is satisfied.");
            run.deleteObject();

            String prefix = run.prefix();
            assertThat(run.output()).contains(prefix + "Label is matching.", prefix + "Label is present.",
                    prefix + "Label is absent.", prefix + "Label callback matching.",
                    prefix + "Annotation is matching.", prefix + "Annotation is present.", prefix + "Annotation is absent.",
                    prefix + "Filter satisfied.", prefix + "Field value is satisfied.", prefix + "Field presence is satisfied.",
                    prefix + "Field change is satisfied.", prefix + "Field daemon is satisfied.")
                    .doesNotContain("Annotation callback mismatch.", "Filter not satisfied.", "Field value is not satisfied.",
                            "Field presence is not satisfied.");
            run.assertEverySuccessOnceAndNoFailures();
        }
    }

    @SuppressWarnings("unchecked")
    private static GenericKubernetesResource changeField(GenericKubernetesResource object, String value) {
        ((Map<String, Object>) object.getAdditionalProperties().get("spec")).put("field", value);
        return object;
    }
}
