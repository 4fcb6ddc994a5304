package io.kopf4j.cli;

import static io.kopf4j.cli.CommandResult.kopf4j;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.client.Version;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The CRD build step of docs/deploying.md: its {@code <plugin>} block, in a project of its own with
 * the guide's Widget class, built by the Maven that runs this build, writes the CRD where the guide
 * says, and that CRD is the one {@code kopf4j crd} prints for the same class.
 */
class CrdMavenPluginTest {
    private static final String POM = """
            <?xml version="1.0" encoding="UTF-8"?>
            <project xmlns="http://maven.apache.org/POM/4.0.0">
              <modelVersion>4.0.0</modelVersion>
              <groupId>com.example</groupId>
              <artifactId>widgets</artifactId>
              <version>1.0</version>
              <properties>
                <maven.compiler.release>21</maven.compiler.release>
                <project.build.sourceEncoding>UTF-8</project.build.sourceEncoding>
              </properties>
              <dependencies>
                <!-- What kopf4j-core brings, without needing kopf4j in the local repository. -->
                <dependency>
                  <groupId>io.fabric8</groupId>
                  <artifactId>kubernetes-client-api</artifactId>
                  <version>%1$s</version>
                </dependency>
                <dependency>
                  <groupId>io.fabric8</groupId>
                  <artifactId>generator-annotations</artifactId>
                  <version>%1$s</version>
                </dependency>
              </dependencies>
              <build>
                <plugins>
                  <plugin>
                    <groupId>org.apache.maven.plugins</groupId>
                    <artifactId>maven-compiler-plugin</artifactId>
                    <version>3.14.0</version>
                  </plugin>
                  <plugin>
                    <groupId>org.apache.maven.plugins</groupId>
                    <artifactId>maven-resources-plugin</artifactId>
                    <version>3.3.1</version>
                  </plugin>
            %2$s
                </plugins>
              </build>
            </project>
            """;

    @TempDir
    Path project;

    @Test
    void theGuidesPluginBlockWritesTheCrdThatKopf4jCrdPrints() throws Exception {
        String plugin = DeployingGuide.block("xml", "<artifactId>crd-generator-maven-plugin</artifactId>");
        Files.writeString(project.resolve("pom.xml"), POM.formatted(Version.clientVersion(), plugin));
        Path source = project.resolve("src/main/java/com/example/operator/Widget.java");
        Files.createDirectories(source.getParent());
        Files.writeString(source, DeployingGuide.block("java", "public class Widget extends CustomResource"));

        Path log = project.resolve("maven.log");
        Process maven = new ProcessBuilder(maven("package")).directory(project.toFile())
                .redirectErrorStream(true).redirectOutput(log.toFile()).start();
        assertThat(maven.waitFor(5, TimeUnit.MINUTES)).as("Maven finished within 5 minutes").isTrue();
        assertThat(maven.exitValue()).as(Files.readString(log)).isZero();

        Path crd = project.resolve("target/classes/META-INF/fabric8/widgets.example.com-v1.yml");
        CommandResult printed = kopf4j("crd", source.toString());
        assertThat(printed.code()).as(printed.err()).isZero();
        assertThat(crd).hasContent(printed.out());
    }

    /**
     * The command line of the Maven that runs this build, with its local repository (both from the
     * pom's Surefire configuration), or of {@code mvn} on the PATH. Released artifacts in the local
     * repository are not looked up again: offline, it builds as long as the plugin was resolved once.
     */
    private static List<String> maven(String... goals) {
        String home = System.getProperty("maven.home");
        List<String> command = new ArrayList<>(List.of(home == null ? "mvn" : Path.of(home, "bin", "mvn").toString(), "-B", "-ntp"));
        String repository = System.getProperty("maven.repo.local");
        if (repository != null) {
            command.add("-Dmaven.repo.local=" + repository);
        }
        command.addAll(List.of(goals));
        return command;
    }
}
