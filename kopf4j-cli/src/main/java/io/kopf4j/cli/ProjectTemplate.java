package io.kopf4j.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The files of a new project ({@code kopf4j init}): templates in this module's resources
 * ({@code io/kopf4j/cli/init/}) whose {@code {{placeholders}}} are filled from the
 * {@link ProjectNames} and from the versions kopf4j was built with.
 *
 * <pre>{@code
 * Map<String, String> files = ProjectTemplate.files(names);   // path in the project -> text
 * ProjectTemplate.write(Path.of("my-operator"), names);
 * }</pre>
 */
final class ProjectTemplate {
    private static final String RESOURCES = "init/";
    private static final Pattern PLACEHOLDER = Pattern.compile("\\{\\{(\\w+)}}");
    /** Template resource -> path in the project (itself a template). */
    private static final Map<String, String> FILES = orderedMap(
            "pom.xml", "pom.xml",
            "README.md", "README.md",
            "gitignore", ".gitignore",
            "Kind.java", "src/main/java/{{packagePath}}/{{kind}}.java",
            "KindSpec.java", "src/main/java/{{packagePath}}/{{kind}}Spec.java",
            "KindStatus.java", "src/main/java/{{packagePath}}/{{kind}}Status.java",
            "KindOperator.java", "src/main/java/{{packagePath}}/{{kind}}Operator.java",
            "KindOperatorTest.java", "src/test/java/{{packagePath}}/{{kind}}OperatorTest.java");

    private ProjectTemplate() {
    }

    /** {@return the project's files: their paths (with '/') and their texts, in a stable order} */
    static Map<String, String> files(ProjectNames names) {
        Map<String, String> values = values(names);
        Map<String, String> files = new LinkedHashMap<>();
        FILES.forEach((resource, path) -> files.put(fill(path, values), fill(read(resource), values)));
        return files;
    }

    /** Writes the project's files under {@code dir}, creating the directories. */
    static void write(Path dir, ProjectNames names) throws IOException {
        for (Map.Entry<String, String> file : files(names).entrySet()) {
            Path path = dir.resolve(file.getKey());
            Files.createDirectories(path.getParent());
            Files.writeString(path, file.getValue());
        }
    }

    /** {@return the versions kopf4j was built with: kopf4j's own, fabric8's} */
    private static Properties builtVersions() {
        Properties versions = new Properties();
        try (InputStream in = resource("versions.properties")) {
            versions.load(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return versions;
    }

    private static Map<String, String> values(ProjectNames names) {
        Properties versions = builtVersions();
        return orderedMap(
                "group", names.group(),
                "version", names.version(),
                "kind", names.kind(),
                "plural", names.plural(),
                "singular", names.singular(),
                "package", names.javaPackage(),
                "packagePath", names.javaPackage().replace('.', '/'),
                "groupId", names.groupId(),
                "artifactId", names.artifactId(),
                "kopf4jVersion", versions.getProperty("kopf4j"),
                "fabric8Version", versions.getProperty("fabric8"));
    }

    /** Fills every placeholder; one without a value is a bug of the template, named. */
    private static String fill(String template, Map<String, String> values) {
        Matcher placeholder = PLACEHOLDER.matcher(template);
        StringBuilder filled = new StringBuilder();
        while (placeholder.find()) {
            String value = values.get(placeholder.group(1));
            if (value == null) {
                throw new IllegalStateException("kopf4j's project template has an unknown placeholder: " + placeholder.group());
            }
            placeholder.appendReplacement(filled, Matcher.quoteReplacement(value));
        }
        return placeholder.appendTail(filled).toString();
    }

    private static String read(String name) {
        try (InputStream in = resource(name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static InputStream resource(String name) {
        InputStream in = ProjectTemplate.class.getResourceAsStream(RESOURCES + name);
        if (in == null) {
            throw new IllegalStateException("kopf4j's project template is missing " + RESOURCES + name);
        }
        return in;
    }

    private static Map<String, String> orderedMap(String... keysAndValues) {
        Map<String, String> map = new LinkedHashMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            map.put(keysAndValues[i], keysAndValues[i + 1]);
        }
        return map;
    }
}
