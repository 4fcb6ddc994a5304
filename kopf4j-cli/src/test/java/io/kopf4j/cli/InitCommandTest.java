package io.kopf4j.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code kopf4j init}: its options' checks and defaults, and the files it makes. */
class InitCommandTest {
    @TempDir
    Path dir;

    private record Result(int code, String out, String err) {
    }

    private static Result kopf4j(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.execute(args, new PrintWriter(out, true), new PrintWriter(err, true), Map.of());
        return new Result(code, out.toString(), err.toString());
    }

    private Result init(String... options) {
        return kopf4j(Stream.concat(Stream.of("init", dir.resolve("my-operator").toString()), Stream.of(options))
                .toArray(String[]::new));
    }

    @Test
    void aBadOptionFailsWithOneErrorNamingIt() {
        assertThat(init("--group", "example").err()).isEqualTo(
                "kopf4j: error: invalid --group 'example': expected a DNS subdomain with a dot, e.g. example.com\n");
        assertThat(init("--group", "Example.com").err()).startsWith("kopf4j: error: invalid --group 'Example.com'");
        assertThat(init("--version", "1").err()).startsWith("kopf4j: error: invalid --version '1'");
        assertThat(init("--kind", "greeting").err()).isEqualTo("kopf4j: error: invalid --kind 'greeting': expected"
                + " a Java class name of at most 63 letters and digits starting upper-case, e.g. Greeting\n");
        assertThat(init("--kind", "Version").err()).startsWith("kopf4j: error: invalid --kind 'Version': expected"
                + " a name other than those the sources import: ");
        assertThat(init("--kind", "Greeting", "--plural", "Greetings").err())
                .startsWith("kopf4j: error: invalid --plural 'Greetings'");
        assertThat(init("--kind", "A" + "b".repeat(62)).err()).as("the derived plural, longer than a DNS label")
                .startsWith("kopf4j: error: invalid --plural 'a" + "b".repeat(62) + "s'");
        assertThat(init("--kind", "A" + "b".repeat(63), "--plural", "abs").err()).as("a singular longer than a DNS label")
                .startsWith("kopf4j: error: invalid --kind 'A" + "b".repeat(63) + "'");
        assertThat(init("--package", "com.example.class").err()).startsWith("kopf4j: error: invalid --package 'com.example.class'");
        assertThat(init("--artifact-id", "my operator").err()).startsWith("kopf4j: error: invalid --artifact-id 'my operator'");
        assertThat(init("--group-id", "com/example").err()).startsWith("kopf4j: error: invalid --group-id 'com/example'");
        assertThat(kopf4j("init", dir.resolve("operator").toString()).err()).isEqualTo("kopf4j: error:"
                + " invalid --kind '' (from the directory 'operator'; give --kind): expected"
                + " a Java class name of at most 63 letters and digits starting upper-case, e.g. Greeting\n");
        assertThat(init("--kind", "greeting").code()).isEqualTo(1);
        assertThat(dir).isEmptyDirectory();
    }

    @Test
    void aNonEmptyDirectoryIsRefused() throws IOException {
        Files.createDirectories(dir.resolve("my-operator"));
        Files.writeString(dir.resolve("my-operator/notes.txt"), "mine");
        Result result = init();
        assertThat(result.code()).isEqualTo(1);
        assertThat(result.err()).isEqualTo("kopf4j: error: " + dir.resolve("my-operator")
                + " is not empty: kopf4j init makes a project in a new or empty directory\n");
        assertThat(dir.resolve("my-operator")).isDirectoryContaining("glob:**/notes.txt")
                .isDirectoryNotContaining("glob:**/pom.xml");
    }

    @Test
    void anEmptyDirectoryIsFilled() throws IOException {
        Files.createDirectories(dir.resolve("my-operator"));
        assertThat(init("--kind", "Greeting").code()).isZero();
        assertThat(dir.resolve("my-operator/pom.xml")).isRegularFile();
    }

    @Test
    void namesNotGivenAreDerived() {
        ProjectNames names = ProjectNames.of(Path.of("work", "my-memcached_operator"), null, null, null, null, null, null, null);
        assertThat(names).isEqualTo(new ProjectNames("example.com", "v1", "MyMemcached", "mymemcacheds", "com.example.operator",
                "com.example", "my-memcached_operator"));
        ProjectNames fromGroup = ProjectNames.of(Path.of("db"), "2nd-db.example.org", null, "Database", null, null, null, null);
        assertThat(fromGroup.javaPackage()).as("a package of Java identifiers").isEqualTo("org.example._2nd_db.operator");
        assertThat(fromGroup.groupId()).isEqualTo("org.example.2nd-db");
        assertThat(ProjectNames.of(Path.of("x"), "int.example.com", null, "X", null, null, null, null).javaPackage())
                .isEqualTo("com.example.int_.operator");
    }

    @Test
    void givenNamesFillEveryPlaceholderAndPath() {
        ProjectNames names = ProjectNames.of(Path.of("db"), "db.example.org", "v1alpha1", "Database", "databasen",
                "org.example.db", "org.example", "db-operator");
        Map<String, String> files = ProjectTemplate.files(names);
        assertThat(files.keySet()).containsExactly("pom.xml", "README.md", ".gitignore",
                "src/main/java/org/example/db/Database.java",
                "src/main/java/org/example/db/DatabaseSpec.java",
                "src/main/java/org/example/db/DatabaseStatus.java",
                "src/main/java/org/example/db/DatabaseOperator.java",
                "src/test/java/org/example/db/DatabaseOperatorTest.java");
        assertThat(files.values()).noneMatch(text -> text.contains("{{"));
        assertThat(files.get("pom.xml")).contains("<groupId>org.example</groupId>", "<artifactId>db-operator</artifactId>",
                "<arg>org.example.db.DatabaseOperator</arg>", "<kopf4j.version>0.1.0-SNAPSHOT</kopf4j.version>");
        assertThat(files.get("src/main/java/org/example/db/Database.java")).contains("package org.example.db;",
                "@Group(\"db.example.org\")", "@Version(\"v1alpha1\")", "@Plural(\"databasen\")",
                "public class Database extends CustomResource<DatabaseSpec, DatabaseStatus> implements Namespaced");
        assertThat(files.get("src/test/java/org/example/db/DatabaseOperatorTest.java")).contains(
                "target/classes/META-INF/fabric8/databasen.db.example.org-v1.yml", "apiVersion: db.example.org/v1alpha1",
                "metadata: {name: database-1}");
    }

    /** A kind named as a type the sources import would not compile: init refuses exactly those names. */
    @Test
    void theRefusedKindsAreTheTypesTheSourcesImport() {
        ProjectNames names = ProjectNames.of(Path.of("x"), null, null, "Greeting", null, null, null, null);
        Pattern imported = Pattern.compile("^import (?:static )?[\\w.]+\\.(\\w+);$", Pattern.MULTILINE);
        Set<String> types = ProjectTemplate.files(names).entrySet().stream()
                .filter(file -> file.getKey().endsWith(".java"))
                .flatMap(file -> imported.matcher(file.getValue()).results().map(match -> match.group(1)))
                .filter(name -> Character.isUpperCase(name.charAt(0)))
                .collect(Collectors.toSet());
        assertThat(ProjectNames.IMPORTED_NAMES).containsExactlyInAnyOrderElementsOf(types);
    }

    /** The image runs the operator with the launcher's JVM options: those scripts/jvm-options.sh prints for Java 21. */
    @Test
    void theImagesJvmFlagsAreTheLaunchers() throws Exception {
        Path java21 = Files.createDirectories(dir.resolve("jdk-21"));
        Files.writeString(java21.resolve("release"), "JAVA_VERSION=\"21.0.8\"\n");
        ProcessBuilder script = new ProcessBuilder("bash", Path.of("..", "scripts", "jvm-options.sh").toString(), java21.toString());
        script.environment().remove("KOPF4J_JAVA_OPTS");
        Process process = script.redirectError(ProcessBuilder.Redirect.INHERIT).start();
        List<String> launchers = new String(process.getInputStream().readAllBytes()).lines().toList();
        assertThat(process.waitFor()).isZero();

        String pom = ProjectTemplate.files(ProjectNames.of(Path.of("x"), null, null, "Greeting", null, null, null, null)).get("pom.xml");
        List<String> images = Pattern.compile("<jvmFlag>(.*)</jvmFlag>").matcher(pom).results().map(match -> match.group(1)).toList();
        assertThat(images).isNotEmpty().isEqualTo(launchers);
    }

    /** A new project's tests get JUnit, AssertJ and Awaitility from kopf4j-bom: every version it names is kopf4j-parent's. */
    @Test
    void theBomsTestLibrariesAreThoseOfKopf4jsBuild() throws IOException {
        Pattern property = Pattern.compile("<([\\w.]+\\.version)>([^<]+)</\\1>");
        Map<String, String> parents = property.matcher(Files.readString(Path.of("..", "pom.xml"))).results()
                .collect(Collectors.toMap(match -> match.group(1), match -> match.group(2), (first, second) -> first));
        Map<String, String> boms = property.matcher(Files.readString(Path.of("..", "kopf4j-bom", "pom.xml"))).results()
                .collect(Collectors.toMap(match -> match.group(1), match -> match.group(2)));
        assertThat(boms).containsKeys("junit.version", "assertj.version", "awaitility.version");
        boms.forEach((name, version) -> assertThat(parents).as("kopf4j-parent's %s", name).containsEntry(name, version));
    }

    /**
     * docs/getting-started/my-operator is what the guide's {@code kopf4j init} command makes, file for
     * file: the guide shows the sample's files (scripts/sample-project.sh checks), so the guide stays true.
     */
    @Test
    void theGettingStartedSampleIsWhatTheGuidesInitMakes() throws IOException {
        Path docs = Path.of("..", "docs");
        Matcher command = Pattern.compile("^kopf4j init (\\S+)((?: [^#\\s]+)*)", Pattern.MULTILINE)
                .matcher(Files.readString(docs.resolve("getting-started.md")));
        assertThat(command.find()).as("a kopf4j init command in docs/getting-started.md").isTrue();
        Path project = dir.resolve(command.group(1));
        List<String> args = Stream.concat(Stream.of("init", project.toString()), Stream.of(command.group(2).trim().split(" ")))
                .filter(arg -> !arg.isEmpty()).toList();
        assertThat(kopf4j(args.toArray(String[]::new)).code()).isZero();

        Path sample = docs.resolve("getting-started").resolve(command.group(1));
        assertThat(tree(sample)).as("the files of %s", sample).isEqualTo(tree(project));
        for (String file : tree(project)) {
            assertThat(sample.resolve(file)).as(file).hasSameTextualContentAs(project.resolve(file));
        }
    }

    /** The files below root but target/ (a build of the sample in place, git-ignored). */
    private static List<String> tree(Path root) throws IOException {
        try (Stream<Path> files = Files.walk(root)) {
            return files.filter(Files::isRegularFile).map(file -> root.relativize(file).toString())
                    .filter(file -> !file.startsWith("target/")).sorted().toList();
        }
    }
}
