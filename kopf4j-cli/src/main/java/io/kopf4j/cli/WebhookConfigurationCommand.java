package io.kopf4j.cli;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.kopf4j.OperatorException;
import io.kopf4j.WebhookClientConfig;
import io.kopf4j.internal.loading.ClusterClients;
import io.kopf4j.internal.loading.HandlerSources;
import io.kopf4j.internal.loading.WebhookConfigurationPrinter;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code kopf4j webhook-configuration}: prints the ValidatingWebhookConfiguration and
 * MutatingWebhookConfiguration for the admission handlers, as {@code settings.admission.managed}
 * would keep them, to apply by hand when the operator does not manage them (it then needs no RBAC
 * permissions on them), and, for {@code @On.Convert} methods, the {@code spec.conversion} of each
 * converted kind's CRD as a part of the CRD. Loads the handlers as {@code kopf4j run} does; the cluster is read only to
 * resolve the handlers' resources.
 */
@Command(name = "webhook-configuration", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Prints the webhook configurations of the admission handlers, and the conversion of",
                "each converted kind's CRD (a part of the CRD: kubectl patch --type merge), to apply by hand."},
        footer = {"", "Examples:",
                "  kopf4j webhook-configuration --url https://operator.example.com:9443 \\",
                "      --ca-bundle ca.pem Handlers.java | kubectl apply -f -",
                "  kopf4j webhook-configuration --service operators/my-operator --service-port 443 \\",
                "      --ca-bundle ca.pem --name my-operator.example.com handlers.jar"})
final class WebhookConfigurationCommand implements Callable<Integer> {
    /** Exactly one way for the API server to reach the webhooks. */
    static final class Target {
        @Option(names = "--url", paramLabel = "URL", required = true,
                description = "The webhook server's base URL; each handler's id is appended as a path segment.")
        String url;

        @Option(names = "--service", paramLabel = "NAMESPACE/NAME", required = true,
                description = "The Service in front of the operator's webhook server.")
        String service;
    }

    @ArgGroup(multiplicity = "1")
    Target target;

    @Option(names = "--service-port", paramLabel = "PORT", description = "The Service's port (default: 443).")
    Integer servicePort;

    @Option(names = "--service-path", paramLabel = "PATH", description = "The base path at the Service (default: none).")
    String servicePath;

    @Option(names = "--ca-bundle", paramLabel = "FILE",
            description = "The PEM file of the CA that signed the webhook server's certificate (default: the API server's own trust).")
    Path caBundle;

    @Option(names = "--name", paramLabel = "NAME", defaultValue = "auto.kopf.dev",
            description = "The configurations' name, also the suffix of each webhook's name (default: ${DEFAULT-VALUE}).")
    String name;

    @Option(names = "--kubeconfig", paramLabel = "FILE",
            description = "The kubeconfig of the cluster whose discovery resolves the resources."
                    + " Default: $KUBECONFIG or ~/.kube/config, or the in-cluster service account.")
    Path kubeconfig;

    @Option(names = "--context", paramLabel = "NAME", description = "The kubeconfig context. Default: the current one.")
    String context;

    @Option(names = {"-m", "--module"}, paramLabel = "NAME",
            description = "Load the handlers of this package (on the classpath); repeatable.")
    List<String> modules = new ArrayList<>();

    @Parameters(paramLabel = "HANDLERS", arity = "0..*",
            description = "Where the handlers are: .java source files, .jar files, or class names on the classpath.")
    List<String> handlers = new ArrayList<>();

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws IOException {
        if (handlers.isEmpty() && modules.isEmpty()) {
            throw new OperatorException("no handlers given: name .java files, .jar files or classes, or -m PACKAGE");
        }
        List<Class<?>> classes = HandlerSources.load(handlers, modules);
        WebhookClientConfig clientConfig = clientConfig();
        try (KubernetesClient client = ClusterClients.of(kubeconfig, context)) {
            String yaml = WebhookConfigurationPrinter.yaml(classes, client, name, clientConfig);
            if (yaml.isEmpty()) {
                throw new OperatorException("the handlers have no @On.Validate, @On.Mutate or @On.Convert methods");
            }
            spec.commandLine().getOut().print(yaml);
            spec.commandLine().getOut().flush();
        }
        return 0;
    }

    private WebhookClientConfig clientConfig() throws IOException {
        return WebhookTargets.clientConfig(target.url, target.service, "--service", servicePort, servicePath, caBundle);
    }
}
