package io.kopf4j.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** docs/testing.md shows the @KopfTest example and the test without a cluster exactly as they are compiled and run here. */
class TestingDocsTest {
    private static final Path SOURCES = Path.of("src/test/java/io/kopf4j/testing");

    @Test
    void theDocsShowTheExampleThatRuns() throws IOException {
        String docs = Files.readString(Path.of("../docs/testing.md"));
        assertThat(docs).contains("```java\n" + Files.readString(SOURCES.resolve("ExampleOperator.java")) + "```");
        assertThat(docs).contains("```java\n" + Files.readString(SOURCES.resolve("ExampleOperatorTest.java")) + "```");
        assertThat(docs).contains("```java\n" + Files.readString(SOURCES.resolve("HandlerUnitTest.java")) + "```");
    }
}
