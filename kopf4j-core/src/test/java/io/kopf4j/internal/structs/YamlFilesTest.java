package io.kopf4j.internal.structs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class YamlFilesTest {
    @TempDir
    Path dir;

    @Test
    void theObjectsOfAStreamAreReadWithEmptyDocumentsLeftOut() throws Exception {
        Path file = Files.writeString(dir.resolve("ok.yaml"), "---\napiVersion: v1\nkind: ConfigMap\n---\n---\napiVersion: v1\nkind: Secret\n---\n");
        assertThat(YamlFiles.objects(file)).extracting(object -> object.get("kind")).containsExactly("ConfigMap", "Secret");
    }

    @Test
    void aSyntaxErrorIsOneLineWithTheFileLineAndColumn() throws Exception {
        Path file = Files.writeString(dir.resolve("bad.yaml"), "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\n spec: [\n");
        assertThatThrownBy(() -> YamlFiles.objects(file)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageMatching("\\Q" + file + "\\E:\\d+:\\d+: [^\\n]+")
                .hasMessageStartingWith(file + ":5:");
    }

    @Test
    void aDocumentThatIsNoKubernetesObjectIsNamedByItsNumber() throws Exception {
        Path file = Files.writeString(dir.resolve("list.yaml"), "apiVersion: v1\nkind: ConfigMap\n---\n- a\n- b\n");
        assertThatThrownBy(() -> YamlFiles.objects(file))
                .hasMessage(file + ": document 2 is not a Kubernetes object (an object with apiVersion and kind)");
    }
}
