package io.kopf4j.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kopf4j.envtest.LocalCluster;
import io.kopf4j.envtest.LocalClusterExtension;
import io.kopf4j.envtest.TemporaryNamespace;
import io.kopf4j.testing.KopfRunner;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * A handler source run by {@code kopf4j run} reads the files next to it and its Maven project's
 * {@code src/main/resources} as resources, as it would from its jar and in {@code mvn test}.
 */
@ExtendWith(LocalClusterExtension.class)
class HandlerResourcesTest {
    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final String SOURCE = """
            import io.kopf4j.On;

            public class ResourceReadingHandlers {
                @On.Create("kopfexamples")
                public String create() throws java.io.IOException {
                    return read("/next-to-the-source.txt") + " " + read("/templates/pvc.yaml");
                }

                private static String read(String name) throws java.io.IOException {
                    try (var in = ResourceReadingHandlers.class.getResourceAsStream(name)) {
                        return in == null ? "missing " + name : new String(in.readAllBytes()).strip();
                    }
                }
            }
            """;

    @TempDir
    Path project;

    @Test
    void aSourceReadsTheFilesNextToItAndItsMavenResources(LocalCluster cluster, TemporaryNamespace namespace)
            throws IOException {
        Path sources = Files.createDirectories(project.resolve("src/main/java"));
        Path source = Files.writeString(sources.resolve("ResourceReadingHandlers.java"), SOURCE);
        Files.writeString(sources.resolve("next-to-the-source.txt"), "next\n");
        Path templates = Files.createDirectories(project.resolve("src/main/resources/templates"));
        Files.writeString(templates.resolve("pvc.yaml"), "kind: PersistentVolumeClaim\n");

        KopfExamples examples = new KopfExamples(cluster, namespace.name());
        try (KopfRunner runner = KopfRunner.start(cluster.kubeconfig(), "run", "-n", namespace.name(), source.toString())) {
            examples.create("ex", Map.of());
            await().atMost(WAIT).untilAsserted(() -> assertThat(examples.status("ex"))
                    .as(runner.output()).containsEntry("create", "next kind: PersistentVolumeClaim"));
        }
    }
}
