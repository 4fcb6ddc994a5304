package io.kopf4j.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code kopf4j init DIR}: makes a Maven project of an operator in a new (or empty) directory: a
 * custom resource as Java types (its CRD generated at build time), create/update/delete handlers,
 * their test on a real kube-apiserver, the container image's build, a README with the commands.
 * Its own {@code --version} is the API version, so it has {@code -h} but not {@code -V}.
 */
@Command(name = "init", sortOptions = false,
        description = {"Makes a Maven project of an operator in DIR (new or empty).",
                "It has a custom resource as Java types (the build generates its CRD), create, update and delete"
                        + " handlers, their test on a real kube-apiserver, the container image's build (Jib),"
                        + " and a README with the commands."},
        footer = {"", "Examples:",
                "  kopf4j init my-operator --group example.com --kind Greeting",
                "  kopf4j init memcached-operator          # kind Memcached, plural memcacheds",
                "  kopf4j init db --kind Database --group db.example.org --version v1alpha1 \\",
                "      --plural databases --package org.example.db --group-id org.example",
                "",
                "Then: cd DIR && mvn verify"})
final class InitCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "DIR", description = "The project's directory; made if absent, refused if not empty.")
    Path dir;

    @Option(names = "--group", paramLabel = "GROUP", description = "The API group, with a dot (default: " + ProjectNames.DEFAULT_GROUP + ").")
    String group;

    @Option(names = "--version", paramLabel = "VERSION", description = "The API version (default: " + ProjectNames.DEFAULT_VERSION + ").")
    String version;

    @Option(names = "--kind", paramLabel = "KIND",
            description = "The kind, also the Java class's name (default: from DIR, without -operator: my-app-operator is MyApp).")
    String kind;

    @Option(names = "--plural", paramLabel = "PLURAL", description = "The resource's plural name (default: the kind in lowercase + s).")
    String plural;

    @Option(names = "--package", paramLabel = "PACKAGE", description = "The Java package (default: com.example.operator for the group example.com).")
    String javaPackage;

    @Option(names = "--group-id", paramLabel = "ID", description = "The Maven groupId (default: com.example for the group example.com).")
    String groupId;

    @Option(names = "--artifact-id", paramLabel = "ID", description = "The Maven artifactId (default: DIR's name).")
    String artifactId;

    @Option(names = {"-h", "--help"}, usageHelp = true, description = "Show this help message and exit.")
    boolean help;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws IOException {
        ProjectNames names = ProjectNames.of(dir, group, version, kind, plural, javaPackage, groupId, artifactId);
        if (Files.exists(dir) && !isEmptyDirectory(dir)) {
            throw new IllegalStateException(dir + " is not empty: kopf4j init makes a project in a new or empty directory");
        }
        ProjectTemplate.write(dir, names);
        PrintWriter out = spec.commandLine().getOut();
        out.println("Made a kopf4j project in " + dir + " for " + names.kind() + " (" + names.plural() + "." + names.group()
                + "/" + names.version() + "), package " + names.javaPackage() + ".");
        out.println("Next: cd " + dir + " && mvn verify    (README.md has the commands to run it and build its image)");
        return 0;
    }

    private static boolean isEmptyDirectory(Path dir) throws IOException {
        if (!Files.isDirectory(dir)) {
            return false;
        }
        try (Stream<Path> entries = Files.list(dir)) {
            return entries.findAny().isEmpty();
        }
    }
}
