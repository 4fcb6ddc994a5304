package io.kopf4j.cli;

import static io.kopf4j.cli.CommandResult.kopf4j;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionVersion;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Version;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code kopf4j crd}: which classes it finds, and where it writes their CRDs (their schemas: TypedCustomResourceTest). */
class CrdCommandTest {
    private static final KubernetesSerialization YAML = new KubernetesSerialization();

    @TempDir
    Path dir;

    @Group("example.com")
    @Version("v1")
    public static class Sprocket extends CustomResource<Sprocket.Spec, Void> implements Namespaced {
        public record Spec(int size) {
        }
    }

    /** Two custom resources, a namespaced one with a status and a cluster-wide one without, and classes that are none. */
    private Path catalog() throws Exception {
        return Files.writeString(dir.resolve("Catalog.java"), """
                import io.fabric8.generator.annotation.Required;
                import io.fabric8.kubernetes.api.model.Namespaced;
                import io.fabric8.kubernetes.client.CustomResource;
                import io.fabric8.kubernetes.model.annotation.Group;
                import io.fabric8.kubernetes.model.annotation.Version;

                public class Catalog {
                    public record WidgetSpec(@Required String image) {}
                    public record WidgetStatus(String phase) {}
                    public record GadgetSpec(String colour) {}

                    @Group("example.com") @Version("v1")
                    public static class Widget extends CustomResource<WidgetSpec, WidgetStatus> implements Namespaced {}

                    @Group("example.com") @Version("v1")
                    public static class Gadget extends CustomResource<GadgetSpec, Void> {}

                    public abstract static class Base extends CustomResource<GadgetSpec, Void> {}
                }
                """);
    }

    @Test
    void printsTheCrdsOfTheCustomResourceClassesOfASourceFile() throws Exception {
        CommandResult result = kopf4j("crd", catalog().toString());
        assertThat(result.code()).as(result.err()).isZero();
        List<CustomResourceDefinition> crds = Arrays.stream(result.out().split("---\n"))
                .map(yaml -> YAML.unmarshal(yaml, CustomResourceDefinition.class)).toList();
        assertThat(crds).extracting(crd -> crd.getMetadata().getName()).containsExactly("gadgets.example.com", "widgets.example.com");

        CustomResourceDefinition gadgets = crds.get(0);
        assertThat(gadgets.getSpec().getScope()).isEqualTo("Cluster");
        assertThat(gadgets.getSpec().getVersions().getFirst().getSubresources()).isNull();

        CustomResourceDefinition widgets = crds.get(1);
        assertThat(widgets.getSpec().getScope()).isEqualTo("Namespaced");
        CustomResourceDefinitionVersion version = widgets.getSpec().getVersions().getFirst();
        assertThat(version.getSubresources().getStatus()).isNotNull();
        assertThat(version.getSchema().getOpenAPIV3Schema().getProperties().get("spec").getRequired()).containsExactly("image");
    }

    @Test
    void writesOneFilePerCrdNamedAsFabric8sMavenPluginNamesThem() throws Exception {
        Path catalog = catalog();
        Path output = dir.resolve("deploy/crds");
        CommandResult result = kopf4j("crd", "-o", output.toString(), catalog.toString());
        assertThat(result.code()).as(result.err()).isZero();
        Path gadgets = output.resolve("gadgets.example.com-v1.yml");
        Path widgets = output.resolve("widgets.example.com-v1.yml");
        assertThat(result.out().lines()).containsExactly(gadgets.toString(), widgets.toString());
        assertThat(Files.readString(gadgets) + "---\n" + Files.readString(widgets)).isEqualTo(kopf4j("crd", catalog.toString()).out());

        CommandResult intoAFile = kopf4j("crd", "-o", catalog.toString(), catalog.toString());
        assertThat(intoAFile.lastErrorLine()).isEqualTo("kopf4j: error: --output " + catalog + " is not a directory");
    }

    @Test
    void findsAClassOnTheClasspathByItsName() {
        CommandResult result = kopf4j("crd", Sprocket.class.getName());
        assertThat(result.code()).as(result.err()).isZero();
        CustomResourceDefinition crd = YAML.unmarshal(result.out(), CustomResourceDefinition.class);
        assertThat(crd.getMetadata().getName()).isEqualTo("sprockets.example.com");
        assertThat(crd.getSpec().getVersions().getFirst().getSchema().getOpenAPIV3Schema().getProperties().get("spec")
                .getProperties().get("size").getType()).isEqualTo("integer");
    }

    @Test
    void aPrimitiveFieldWithADefaultIsWarnedOfWhereverItIsNestedAndABoxedOneIsNot() throws Exception {
        Path source = Files.writeString(dir.resolve("Pools.java"), """
                import io.fabric8.generator.annotation.Default;
                import io.fabric8.kubernetes.api.model.Namespaced;
                import io.fabric8.kubernetes.client.CustomResource;
                import io.fabric8.kubernetes.model.annotation.Group;
                import io.fabric8.kubernetes.model.annotation.Version;
                import java.util.List;

                public class Pools {
                    public record Member(@Default("true") boolean voting) {}
                    public record PoolSpec(@Default("1") int replicas, @Default("2") Integer shards, List<Member> members) {}

                    @Group("example.com") @Version("v1")
                    public static class Pool extends CustomResource<PoolSpec, Void> implements Namespaced {}
                }
                """);
        CommandResult result = kopf4j("crd", source.toString());
        assertThat(result.code()).as(result.err()).isZero();
        assertThat(result.out()).contains("name: pools.example.com");
        assertThat(result.err().lines()).containsExactlyInAnyOrder(
                "Warning: PoolSpec.replicas is a primitive int with @Default(\"1\"): a Java client that leaves it unset"
                        + " sends 0, which the API server keeps instead of the default; declare it Integer to let the"
                        + " default apply.",
                "Warning: Member.voting is a primitive boolean with @Default(\"true\"): a Java client that leaves it"
                        + " unset sends false, which the API server keeps instead of the default; declare it Boolean to"
                        + " let the default apply.");
    }

    /** One kind in two versions, as two nested classes of one source file; {@code storage} as given. */
    private Path versions(String oldVersion) throws Exception {
        return Files.writeString(dir.resolve("Versions.java"), """
                import io.fabric8.kubernetes.api.model.Namespaced;
                import io.fabric8.kubernetes.client.CustomResource;
                import io.fabric8.kubernetes.model.annotation.Group;
                import io.fabric8.kubernetes.model.annotation.Version;

                public class Versions {
                    public static class V1alpha1 {
                        public record Spec(Integer size) {}
                        @Group("example.com") %s
                        public static class Widget extends CustomResource<Spec, Void> implements Namespaced {}
                    }
                    public static class V1 {
                        public record Spec(String size) {}
                        @Group("example.com") @Version("v1")
                        public static class Widget extends CustomResource<Spec, Void> implements Namespaced {}
                    }
                }
                """.formatted(oldVersion));
    }

    @Test
    void versionsOfOneKindMakeOneCrdWithOneStorageVersion() throws Exception {
        CommandResult result = kopf4j("crd", versions("@Version(value = \"v1alpha1\", storage = false, deprecated = true)")
                .toString());
        assertThat(result.code()).as(result.err()).isZero();

        CustomResourceDefinition crd = YAML.unmarshal(result.out(), CustomResourceDefinition.class);
        assertThat(crd.getMetadata().getName()).isEqualTo("widgets.example.com");
        assertThat(crd.getSpec().getVersions()).extracting(CustomResourceDefinitionVersion::getName,
                CustomResourceDefinitionVersion::getStorage, CustomResourceDefinitionVersion::getServed,
                CustomResourceDefinitionVersion::getDeprecated)
                .containsExactly(tuple("v1", true, true, null), tuple("v1alpha1", false, true, true));
        assertThat(crd.getSpec().getVersions().get(1).getSchema().getOpenAPIV3Schema().getProperties().get("spec")
                .getProperties().get("size").getType()).isEqualTo("integer");
    }

    @Test
    void versionsGetTheConversionWebhookGivenForGitOpsAndASingleVersionNone() throws Exception {
        Path ca = Files.writeString(dir.resolve("ca.pem"), "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n");
        CommandResult result = kopf4j("crd", "--conversion-service", "operators/cache-operator", "--conversion-service-port",
                "9443", "--ca-bundle", ca.toString(), versions("@Version(value = \"v1alpha1\", storage = false)").toString(),
                Sprocket.class.getName());
        assertThat(result.code()).as(result.err()).isZero();
        List<CustomResourceDefinition> crds = Arrays.stream(result.out().split("---\n"))
                .map(yaml -> YAML.unmarshal(yaml, CustomResourceDefinition.class)).toList();

        assertThat(crds.get(0).getMetadata().getName()).isEqualTo("sprockets.example.com");
        assertThat(crds.get(0).getSpec().getConversion()).isNull();
        var conversion = crds.get(1).getSpec().getConversion();
        assertThat(conversion.getStrategy()).isEqualTo("Webhook");
        assertThat(conversion.getWebhook().getConversionReviewVersions()).containsExactly("v1", "v1beta1");
        var service = conversion.getWebhook().getClientConfig().getService();
        assertThat(List.of(service.getNamespace(), service.getName(), service.getPath(), String.valueOf(service.getPort())))
                .containsExactly("operators", "cache-operator", "/convert/widgets.example.com", "9443");
        assertThat(conversion.getWebhook().getClientConfig().getCaBundle())
                .isEqualTo(java.util.Base64.getEncoder().encodeToString(Files.readAllBytes(ca)));

        CommandResult stray = kopf4j("crd", "--ca-bundle", ca.toString(), Sprocket.class.getName());
        assertThat(stray.lastErrorLine()).isEqualTo("kopf4j: error: --ca-bundle, --conversion-service-port and"
                + " --conversion-service-path go with --conversion-url or --conversion-service");
    }

    @Test
    void twoStorageVersionsAreOneErrorThatSaysHowToMarkTheOldOne() throws Exception {
        CommandResult result = kopf4j("crd", versions("@Version(\"v1alpha1\")").toString());

        assertThat(result.code()).isNotZero();
        assertThat(result.lastErrorLine()).isEqualTo("kopf4j: error: The versions of widgets.example.com need exactly one"
                + " storage version, but [v1 (Versions$V1$Widget), v1alpha1 (Versions$V1alpha1$Widget)] are marked"
                + " @Version(storage = true), fabric8's default: mark the older ones"
                + " @Version(value = \"v1alpha1\", storage = false)");
    }

    @Test
    void helpShowsTheExamples() {
        CommandResult help = kopf4j("crd", "--help");
        assertThat(help.code()).isZero();
        assertThat(help.out()).contains("-o, --output=DIR", "Examples:", "kopf4j crd Widget.java | kubectl apply -f -",
                "KOPF4J_CRD_OUTPUT");
        assertThat(kopf4j("--help").out()).contains("crd ");
    }
}
