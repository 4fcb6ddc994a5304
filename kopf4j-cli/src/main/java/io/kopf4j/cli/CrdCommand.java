package io.kopf4j.cli;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.kopf4j.OperatorException;
import io.kopf4j.WebhookClientConfig;
import io.kopf4j.internal.structs.DefaultedPrimitives;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SortedMap;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
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
                "  kopf4j crd --conversion-service operators/my-operator --ca-bundle ca.pem Cache.java",
                "",
                "A custom resource class extends fabric8's CustomResource<Spec, Status>",
                "and has @Group and @Version: docs/deploying.md, \"CRDs from Java types\".",
                "Versions of one kind make one CRD; their conversion webhook: docs/versions.md.",
                "",
                "Options default to environment variables KOPF4J_CRD_<OPTION>, e.g. KOPF4J_CRD_OUTPUT."})
final class CrdCommand implements Callable<Integer> {
    @Option(names = {"-o", "--output"}, paramLabel = "DIR",
            description = "Write one file per CRD into this directory instead, named <plural>.<group>-v1.yml"
                    + " as fabric8's Maven plugin names them, and print their paths.")
    Path output;

    /** Where the CRDs of several versions send their conversions: the operator's webhook server, at most one way. */
    static final class ConversionTarget {
        @Option(names = "--conversion-url", paramLabel = "URL",
                description = "The CRDs of several versions convert through the operator's webhook server at this base"
                        + " URL (+ /convert/<crd>), instead of the operator setting it (settings.conversion.managed).")
        String url;

        @Option(names = "--conversion-service", paramLabel = "NAMESPACE/NAME",
                description = "The same through this Service in front of the operator (kopf4j manifests generates it).")
        String service;
    }

    @ArgGroup(multiplicity = "0..1")
    ConversionTarget conversion;

    @Option(names = "--conversion-service-port", paramLabel = "PORT", description = "The Service's port (default: 443).")
    Integer servicePort;

    @Option(names = "--conversion-service-path", paramLabel = "PATH", description = "The base path at the Service (default: none).")
    String servicePath;

    @Option(names = "--ca-bundle", paramLabel = "FILE",
            description = "With --conversion-url or --conversion-service: the PEM file of the CA that signed the webhook"
                    + " server's certificate (default: the API server's own trust).")
    Path caBundle;

    @Parameters(paramLabel = "CLASSES", arity = "1..*",
            description = "The custom resource classes: .java source files or .jar files (the custom resource"
                    + " classes in them), or class names on the classpath ($CLASSPATH).")
    List<String> classes = new ArrayList<>();

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws IOException {
        WebhookClientConfig conversions = conversion == null ? null
                : WebhookTargets.clientConfig(conversion.url, conversion.service, "--conversion-service", servicePort,
                        servicePath, caBundle);
        if (conversions == null && (caBundle != null || servicePort != null || servicePath != null)) {
            throw new OperatorException("--ca-bundle, --conversion-service-port and --conversion-service-path go with"
                    + " --conversion-url or --conversion-service");
        }
        List<Class<? extends HasMetadata>> types = CustomResourceClasses.load(classes);
        SortedMap<String, String> crds = CrdGeneration.generate(types, conversions);
        // A warning, not an error: the CRD is right, only objects built in Java miss the default.
        types.stream().flatMap(type -> DefaultedPrimitives.of(type).stream()).distinct()
                .forEach(warning -> spec.commandLine().getErr().println("Warning: " + warning + "."));
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
