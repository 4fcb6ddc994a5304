package io.kopf4j.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.crd.generator.annotation.PreserveUnknownFields;
import io.fabric8.crd.generator.annotation.PrinterColumn;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Max;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Required;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionVersion;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.ShortNames;
import io.fabric8.kubernetes.model.annotation.Version;
import io.kopf4j.On;
import io.kopf4j.Patch;
import io.kopf4j.cli.Main;
import io.kopf4j.envtest.LocalCluster;
import io.kopf4j.envtest.LocalClusterExtension;
import io.kopf4j.envtest.TemporaryNamespace;
import io.kopf4j.testing.KopfRunner;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * A custom resource described by Java types: {@code kopf4j crd} makes its CRD from the classes, the
 * real API server accepts it and validates objects by its schema (required fields, enums, bounds,
 * patterns, defaults, a free-form map), and an operator's handlers take the same classes as typed
 * objects.
 */
@ExtendWith(LocalClusterExtension.class)
class TypedCustomResourceTest {
    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final String API_VERSION = "typed.kopf4j.dev/v1";

    /** A Widget: the custom resource class that both the CRD and the handlers come from. */
    @Group("typed.kopf4j.dev")
    @Version("v1")
    @ShortNames("wg")
    public static class Widget extends CustomResource<WidgetSpec, WidgetStatus> implements Namespaced {
    }

    public enum Size {
        @JsonProperty("small") SMALL,
        @JsonProperty("large") LARGE
    }

    public record WidgetSpec(
            @Required @PrinterColumn(name = "Image") @JsonPropertyDescription("The container image to run.") String image,
            @Min(1) @Max(5) @Default("1") Integer replicas,
            Size size,
            @Pattern("^[0-9]+(Gi|Mi)$") String storage,
            @JsonPropertyDescription("Anything, kept as it is.") Map<String, JsonNode> settings) {
    }

    /**
     * Open to more fields: kopf4j stores the handlers' results in {@code status.<handler id>}, which the
     * API server keeps (the schema) and fabric8's client skips when it reads a Widget (Jackson).
     */
    @PreserveUnknownFields
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record WidgetStatus(String phase, Integer replicas) {
    }

    public record Summary(String message) {
    }

    public static class Handlers {
        @On.Create({"typed.kopf4j.dev", "v1", "widgets"})
        public Summary create(Widget widget, WidgetSpec spec, Patch patch) {
            patch.status(new WidgetStatus("Running " + spec.image(), spec.replicas()));
            return new Summary(widget.getMetadata().getName() + " is " + widget.getSpec().size());
        }
    }

    @TempDir
    static Path dir;

    private LocalCluster cluster;
    private TemporaryNamespace namespace;
    private KopfExamples widgets;

    @BeforeEach
    void installGeneratedCrd(LocalCluster cluster, TemporaryNamespace namespace) throws Exception {
        this.cluster = cluster;
        this.namespace = namespace;
        this.widgets = new KopfExamples(cluster.client(), namespace.name(), API_VERSION, "Widget");
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.execute(new String[]{"crd", Widget.class.getName()}, new PrintWriter(out, true), new PrintWriter(err, true));
        assertThat(code).as(err.toString()).isZero();
        cluster.apply(Files.writeString(dir.resolve("widgets.yaml"), out.toString()));
    }

    @Test
    void theApiServerAcceptsTheCrdWithTheClassesNamesColumnsAndStatusSubresource() {
        CustomResourceDefinition crd = cluster.client().apiextensions().v1().customResourceDefinitions()
                .withName("widgets.typed.kopf4j.dev").get();
        assertThat(crd.getSpec().getScope()).isEqualTo("Namespaced");
        assertThat(crd.getSpec().getNames().getKind()).isEqualTo("Widget");
        assertThat(crd.getSpec().getNames().getShortNames()).containsExactly("wg");
        CustomResourceDefinitionVersion version = crd.getSpec().getVersions().getFirst();
        assertThat(version.getName()).isEqualTo("v1");
        assertThat(version.getSubresources().getStatus()).isNotNull();
        assertThat(version.getAdditionalPrinterColumns()).singleElement().satisfies(column -> {
            assertThat(column.getName()).isEqualTo("Image");
            assertThat(column.getJsonPath()).isEqualTo(".spec.image");
        });
        assertThat(version.getSchema().getOpenAPIV3Schema().getProperties().get("spec").getProperties().get("image")
                .getDescription()).isEqualTo("The container image to run.");
    }

    @Test
    void aValidObjectIsStoredWithItsDefaultsAndFreeFormFieldsUnknownFieldsPruned() {
        Map<String, Object> settings = Map.of("retries", 3, "nested", Map.of("list", List.of(1, "two")));
        Map<String, Object> spec = new HashMap<>(Map.of("image", "nginx", "size", "small", "storage", "10Gi",
                "settings", settings, "colour", "red"));
        widgets.create("valid", spec);

        Widget stored = cluster.client().resources(Widget.class).inNamespace(namespace.name()).withName("valid").get();
        assertThat(stored.getSpec().replicas()).isEqualTo(1);
        assertThat(stored.getSpec().size()).isEqualTo(Size.SMALL);
        assertThat(widgets.get("valid").getAdditionalProperties().get("spec")).isEqualTo(Map.of(
                "image", "nginx", "replicas", 1, "size", "small", "storage", "10Gi", "settings", settings));
    }

    @Test
    void invalidObjectsAreRejectedWithTheApiServersMessages() {
        assertRejected("no-image", Map.of("size", "small"),
                "spec.image: Required value");
        assertRejected("zero", Map.of("image", "nginx", "replicas", 0),
                "spec.replicas: Invalid value: 0: spec.replicas in body should be greater than or equal to 1");
        assertRejected("six", Map.of("image", "nginx", "replicas", 6),
                "spec.replicas: Invalid value: 6: spec.replicas in body should be less than or equal to 5");
        assertRejected("huge", Map.of("image", "nginx", "size", "huge"),
                "spec.size: Unsupported value: \"huge\": supported values: \"large\", \"small\"");
        assertRejected("tiny", Map.of("image", "nginx", "storage", "10G"),
                "spec.storage: Invalid value: \"10G\": spec.storage in body should match '^[0-9]+(Gi|Mi)$'");
        assertRejected("text", Map.of("image", "nginx", "replicas", "three"),
                "spec.replicas: Invalid value: \"string\": spec.replicas in body must be of type integer: \"string\"");
    }

    @Test
    void anOperatorHandlesTheObjectsAsTheTypedClasses() {
        OperatorFixture fixture = new OperatorFixture(cluster, namespace);
        try (KopfRunner runner = fixture.run(Handlers.class)) {
            Widget widget = new Widget();
            widget.setMetadata(new ObjectMetaBuilder().withName("typed").build());
            widget.setSpec(new WidgetSpec("nginx", null, Size.LARGE, null, null));
            cluster.client().resources(Widget.class).inNamespace(namespace.name()).resource(widget).create();

            await().atMost(WAIT).untilAsserted(() -> {
                Widget handled = cluster.client().resources(Widget.class).inNamespace(namespace.name()).withName("typed").get();
                assertThat(handled.getStatus()).isEqualTo(new WidgetStatus("Running nginx", 1));
            });
            assertThat(widgets.status("typed")).containsEntry("create", Map.of("message", "typed is LARGE"));
            assertThat(runner.output()).contains(fixture.about("typed") + "Handler 'create' succeeded.");
        }
    }

    private void assertRejected(String name, Map<String, Object> spec, String message) {
        KubernetesClientException rejection = catchThrowableOfType(KubernetesClientException.class, () -> widgets.create(name, spec));
        assertThat(rejection).as("%s is rejected", name).isNotNull();
        assertThat(rejection.getCode()).isEqualTo(422);
        assertThat(rejection.getStatus().getMessage())
                .isEqualTo("Widget.typed.kopf4j.dev \"" + name + "\" is invalid: " + message);
    }
}
