package io.kopf4j.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TryHintTest {
    private static final Path KUBECTL = Path.of("/bin/kubectl");
    private static final Path KUBECONFIG = Path.of("/tmp/kubeconfig");

    @TempDir
    Path dir;

    private static String crd(String kind) {
        return """
                apiVersion: apiextensions.k8s.io/v1
                kind: CustomResourceDefinition
                metadata: {name: %1$ss.example.com}
                spec:
                  group: example.com
                  scope: Namespaced
                  names: {kind: %2$s, plural: %1$ss, singular: %1$s}
                  versions: [{name: v1, served: true, storage: true, schema: {openAPIV3Schema: {type: object}}}]
                """.formatted(kind.toLowerCase(java.util.Locale.ROOT), kind);
    }

    private static String object(String kind) {
        return "apiVersion: example.com/v1\nkind: " + kind + "\nmetadata: {name: sample}\n";
    }

    @Test
    void theExamplesCrdSuggestsTheExamplesObjectAsTheReadmeSays() {
        Path examples = Path.of("..", "examples");
        assertThat(TryHint.command(KUBECTL, KUBECONFIG, List.of(examples.resolve("crd.yaml"))))
                .isEqualTo("/bin/kubectl --kubeconfig /tmp/kubeconfig apply -f " + examples.resolve("obj.yaml"));
    }

    @Test
    void aSampleOfTheCrdsKindBesideItIsSuggestedObjYamlFirst() throws Exception {
        Path crd = Files.writeString(dir.resolve("widget-crd.yaml"), crd("Widget"));
        Files.writeString(dir.resolve("a-gadget.yaml"), object("Gadget"));
        Files.writeString(dir.resolve("b-widget.yaml"), object("Widget"));
        assertThat(TryHint.sampleFor(List.of(crd))).contains(dir.resolve("b-widget.yaml"));
        Files.writeString(dir.resolve("obj.yaml"), object("Widget"));
        assertThat(TryHint.sampleFor(List.of(crd))).contains(dir.resolve("obj.yaml"));
    }

    @Test
    void anObjectAlreadyAppliedWithCrdIsNotSuggestedAgain() throws Exception {
        Path crd = Files.writeString(dir.resolve("crd.yaml"), crd("Widget"));
        Path obj = Files.writeString(dir.resolve("obj.yaml"), object("Widget"));
        assertThat(TryHint.sampleFor(List.of(crd, obj))).isEmpty();
    }

    @Test
    void withoutAFittingSampleTheHintIsGeneric() throws Exception {
        Path crd = Files.writeString(dir.resolve("crd.yaml"), crd("Widget"));
        Files.writeString(dir.resolve("obj.yaml"), object("Gadget"));
        Files.writeString(dir.resolve("notes.yaml"), "- not: [kubernetes");
        assertThat(TryHint.command(KUBECTL, KUBECONFIG, List.of(crd)))
                .isEqualTo("/bin/kubectl --kubeconfig /tmp/kubeconfig apply -f <your object>.yaml");
        assertThat(TryHint.command(KUBECTL, KUBECONFIG, List.of()))
                .isEqualTo("/bin/kubectl --kubeconfig /tmp/kubeconfig apply -f <your object>.yaml");
    }
}
