package io.kopf4j.cli;

import io.kopf4j.OperatorException;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SortedMap;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code kopf4j crd}: the CustomResourceDefinitions of custom resource classes, with their OpenAPI
 * schemas, made by fabric8's CRD generator exactly as its Maven plugin makes them. The classes are
 * those the handlers take as typed objects, so the CRD and the handlers cannot disagree. Prints the
 * YAML (documents separated by {@code ---}), or writes one file per CRD into a directory.
 */
@Command(name = "crd", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Prints the CRDs of custom resource classes (fabric8's CRD generator).",
        footer = {"", "Examples:",
                "  kopf4j crd Widget.java | kubectl apply -f -",
                "  kopf4j crd -o deploy/crds target/my-operator.jar",
                "  CLASSPATH=target/classes kopf4j crd com.example.operator.Widget",
                "",
                "A custom resource class extends fabric8's CustomResource<Spec, Status>",
                "and has @Group and @Version: docs/deploying.md, \"CRDs from Java types\".",
                "",
                "Options default to environment variables KOPF4J_CRD_<OPTION>, e.g. KOPF4J_CRD_OUTPUT."})
final class CrdCommand implements Callable<Integer> {
    @Option(names = {"-o", "--output"}, paramLabel = "DIR",
            description = "Write one file per CRD into this directory instead, named <plural>.<group>-v1.yml"
                    + " as fabric8's Maven plugin names them, and print their paths.")
    Path output;

    @Parameters(paramLabel = "CLASSES", arity = "1..*",
            description = "The custom resource classes: .java source files or .jar files (the custom resource"
                    + " classes in them), or class names on the classpath ($CLASSPATH).")
    List<String> classes = new ArrayList<>();

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws IOException {
        SortedMap<String, String> crds = CrdGeneration.generate(CustomResourceClasses.load(classes));
        PrintWriter out = spec.commandLine().getOut();
        if (output == null) {
            out.print(String.join("---\n", crds.values()));
        } else {
            if (Files.exists(output) && !Files.isDirectory(output)) {
                throw new OperatorException("--output " + output + " is not a directory");
            }
            Files.createDirectories(output);
            for (var crd : crds.entrySet()) {
                out.println(Files.writeString(output.resolve(crd.getKey()), crd.getValue()));
            }
        }
        out.flush();
        return 0;
    }
}
