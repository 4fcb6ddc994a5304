package io.kopf4j.cli;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.kopf4j.OperatorException;
import io.kopf4j.OperatorSettings;
import io.kopf4j.Resource;
import io.kopf4j.internal.engines.permissions.ApiCatalog;
import io.kopf4j.internal.engines.permissions.OfflineCatalog;
import io.kopf4j.internal.engines.permissions.Rule;
import io.kopf4j.internal.loading.OperatorPlan;
import io.kopf4j.internal.loading.RunOptions;
import io.kopf4j.internal.logging.LogSetup;
import io.kopf4j.kits.webhooks.WebhookServerChoice;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code kopf4j manifests}: what it takes to run the operator in a cluster, derived from the
 * operator itself with the same options as {@code kopf4j run}: its ServiceAccount, its
 * least-privilege RBAC (each rule with comments saying which handler or feature needs it), its
 * Deployment (running {@code run} with those options), the Service of its webhook server (a
 * {@code WebhookServer} with a fixed port in {@code settings.admission.server}), and the CRDs given. Resources are resolved
 * without a cluster from the {@code --crd} files and Kubernetes' built-in resources, or through
 * the cluster's discovery when {@code --kubeconfig} names one.
 */
@Command(name = "manifests", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Prints the ServiceAccount, least-privilege RBAC, Deployment, webhook Service and CRDs of an operator"
                + " (or writes them as files, or as a Helm chart).",
        footer = {"", "Examples:",
                "  kopf4j manifests --crd examples/crd.yaml --image registry.example.com/op:1.0 \\",
                "      -A examples/01-minimal/Example.java | kubectl apply -f -",
                "  kopf4j manifests -n team-a -n team-b --leader-election --replicas 2 \\",
                "      --crd crd.yaml -o deploy/ Handlers.java && kubectl apply -k deploy/",
                "  kopf4j manifests -n team-a --image example.com/op:1.0 --crd crd.yaml \\",
                "      --helm chart/ Handlers.java && helm lint chart/ && \\",
                "      helm install op chart/ --namespace ops --create-namespace",
                "",
                "--helm DIR writes a Helm chart: its values.yaml sets the image, replicas,",
                "resources, namespaces, leaderElection, metrics and serviceAccount (defaults:",
                "these options); the RBAC is derived for every value that changes it:",
                "helm upgrade --set 'namespaces={team-b}' moves the Role to team-b.",
                "",
                "The Deployment's container runs the image's entrypoint (java ... io.kopf4j.cli.Main)",
                "with args: run <these run options> <the handler classes>."})
final class ManifestsCommand implements Callable<Integer> {
    /** The run options that concern this machine's access to a cluster, not the operator's pod. */
    private static final Set<String> LOCAL_OPTIONS = Set.of("--kubeconfig", "--context", "--module");
    private static final int HEALTH_PORT = 8081;
    /** kubebuilder's ports: 8443 for HTTPS, the default, and 8080 for plain HTTP (--no-metrics-secure). */
    private static final int SECURE_METRICS_PORT = 8443;
    private static final int METRICS_PORT = 8080;

    @Mixin
    RunOptions options;

    @Option(names = "--crd", paramLabel = "FILE",
            description = "CRD files: their resources are resolved from them, and they are copied into the output.")
    List<Path> crds = new ArrayList<>();

    @Option(names = "--name", paramLabel = "NAME",
            description = "The name of the ServiceAccount, roles, bindings and Deployment. Default: from the first handler"
                    + " class, e.g. DatabaseOperator -> database-operator.")
    String name;

    @Option(names = "--operator-namespace", paramLabel = "NAMESPACE", defaultValue = "default",
            description = "Where the operator runs (its ServiceAccount, Deployment and Leases; a Namespace of it is made unless it is default). Default: ${DEFAULT-VALUE}.")
    String operatorNamespace;

    @Option(names = "--image", paramLabel = "IMAGE",
            description = "The operator's container image (its entrypoint is java ... io.kopf4j.cli.Main). Default: NAME:latest.")
    String image;

    @Option(names = "--replicas", paramLabel = "N", defaultValue = "1", description = "The Deployment's replicas. Default: 1.")
    int replicas;

    @Option(names = {"-o", "--output-dir"}, paramLabel = "DIR",
            description = "Write one file per kind and a kustomization.yaml there, instead of printing one YAML stream.")
    Path outputDir;

    @Option(names = "--helm", paramLabel = "DIR",
            description = "Write a Helm chart there instead: values for the image, replicas, resources, namespaces, leader"
                    + " election, metrics and ServiceAccount (defaults: these options), the RBAC derived for every value"
                    + " that changes it, the CRDs in crds/. Its namespace is the release's, not --operator-namespace.")
    Path helmDir;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws IOException {
        // Only the levels: the run's --log-format and --log-prefix are for the Deployment's operator, not for this
        // command's own lines (and replacing the console would cut off any capture of an operator in this JVM).
        // It prints a result: nothing else below a warning (the startup handlers' lines) unless --verbose.
        LogSetup.configure(options.verbose(), !options.verbose());
        if (outputDir != null && helmDir != null) {
            throw new OperatorException("-o/--output-dir and --helm exclude each other: one writes the manifests, the other a chart");
        }
        CrdFiles.check(crds);   // a malformed file is named with its line before anything is derived
        OperatorPlan given = options.plan();
        // The startup handlers that take the settings run again for each choice derived below (a chart derives a
        // dozen): their lines once, from this first run, say what they say; their warnings and errors still show.
        Logger startup = (Logger) LoggerFactory.getLogger("kopf.activities.startup");   // Kopf's name, as kopf4j's
        Level level = startup.getLevel();
        startup.setLevel(Level.WARN);
        try {
            return generate(given);
        } finally {
            startup.setLevel(level);   // as it was for what runs next in this JVM (a test's operator)
        }
    }

    private int generate(OperatorPlan given) throws IOException {
        // Secure metrics unless --no-metrics-secure: chosen before the rules are derived, which follow the setting.
        boolean secure = !spec.commandLine().getParseResult().hasMatchedOption("--metrics-secure")
                || given.choices().metricsSecure();
        OperatorPlan plan = given.with(new OperatorPlan.Choices(given.namespaces(), given.choices().leaderElection(), secure));
        String operatorName = name != null ? name : defaultName(plan.handlerClasses().getFirst());
        try (KubernetesClient client = plan.explicitCluster() ? plan.client() : null) {
            ApiCatalog catalog = client != null ? withCrds(ApiCatalog.live(client)) : OfflineCatalog.of(crds);
            if (helmDir != null) {
                writeChart(plan, catalog, operatorName);
                return 0;
            }
            Manifests manifests = manifests(plan, catalog, operatorName);
            if (outputDir == null) {
                PrintWriter out = spec.commandLine().getOut();
                out.print(manifests.stream());
                out.flush();
            } else {
                write(manifests);
            }
        }
        return 0;
    }

    private Manifests manifests(OperatorPlan plan, ApiCatalog catalog, String operatorName) throws IOException {
        List<Rule> rules = plan.rules(catalog, operatorNamespace);
        Manifests manifests = new Manifests(operatorName, operatorNamespace);
        if (!operatorNamespace.equals("default")) {   // every cluster has "default"; another one the manifests make
            manifests.namespace();
        }
        manifests.serviceAccount();
        manifests.rbac(rules);
        if (plan.settings().metrics.secure) {
            manifests.metricsReader();
        }
        Integer webhookPort = WebhookService.port(plan.settings().admission.server, plan.needsWebhookServer(),
                operatorName, operatorNamespace, spec.commandLine().getErr());
        List<String> args = deploymentArgs(plan);
        OperatorSettings settings = plan.settings();
        List<Map<String, Object>> env = new ArrayList<>(DeploymentSpec.environment(settings));
        if (webhookPort != null && settings.admission.server == null) {
            // kopf4j's choice in a pod serves on this port, published as the Service's host.
            env.add(DeploymentSpec.ordered("name", WebhookServerChoice.HOST_VARIABLE, "value", operatorName + "." + operatorNamespace + ".svc"));
        }
        manifests.deployment(DeploymentSpec.of(operatorName, new DeploymentSpec.Parts(
                image != null ? image : operatorName + ":latest", null, replicas, args, env.isEmpty() ? null : env,
                port(args, "--health-probe-bind-address"), port(args, "--metrics-bind-address"), webhookPort,
                DeploymentSpec.RESOURCES, replicas == 1 && DeploymentSpec.oneAtATime(settings) ? "Recreate" : null,
                operatorName)));
        if (webhookPort != null) {
            manifests.service(webhookPort);
        }
        manifests.metricsService(port(args, "--metrics-bind-address"), settings.metrics.secure ? "https" : "http");
        for (Path crd : crds) {
            manifests.crd(Files.readString(crd));
        }
        return manifests;
    }

    /** The chart in {@code --helm DIR}, its values' defaults from these options. */
    private void writeChart(OperatorPlan plan, ApiCatalog catalog, String operatorName) throws IOException {
        // The namespace is the release's: the webhook server's host may name it, and the chart then holds the release to it.
        String webhookNamespace = WebhookService.hostNamespace(plan.settings().admission.server, operatorName);
        Integer webhookPort = WebhookService.port(plan.settings().admission.server, plan.needsWebhookServer(), operatorName,
                webhookNamespace != null ? webhookNamespace : operatorNamespace, spec.commandLine().getErr());
        List<String> files = HelmChart.write(helmDir, new HelmChart.Input(operatorName, plan, catalog, deploymentArgs(plan),
                image != null ? image : operatorName + ":latest", replicas, webhookPort, webhookNamespace, crds));
        PrintWriter out = spec.commandLine().getOut();
        out.println("Wrote the chart " + operatorName + " to " + helmDir + " (" + String.join(", ", files) + "); check it and"
                + " install it with: helm lint " + helmDir + " && helm install " + operatorName + " " + helmDir
                + " --namespace " + (webhookNamespace != null ? webhookNamespace : operatorNamespace) + " --create-namespace");
        out.flush();
    }

    /** The live discovery, and the CRDs of the files that the cluster does not serve yet. */
    private ApiCatalog withCrds(ApiCatalog live) {
        List<Resource> fromFiles = crds.stream().flatMap(file -> OfflineCatalog.crds(file).stream()).toList();
        return new ApiCatalog() {
            @Override
            public List<Resource> resources(Set<String> groups) {
                List<Resource> resources = new ArrayList<>(live.resources(groups));
                fromFiles.stream().filter(r -> groups == null || groups.contains(r.group()))
                        .filter(r -> resources.stream().noneMatch(known -> known.group().equals(r.group())
                                && known.plural().equals(r.plural()) && known.version().equals(r.version())))
                        .forEach(resources::add);
                return resources;
            }

            @Override
            public String remedy() {
                return live.remedy() + ", or pass its CRD with --crd FILE";
            }
        };
    }

    /** One file per kind (documents of a kind together) and the kustomization that lists them. */
    private void write(Manifests manifests) throws IOException {
        Files.createDirectories(outputDir);
        Map<String, List<String>> byKind = new LinkedHashMap<>();
        manifests.documents().forEach(d -> byKind.computeIfAbsent(d.kind(), k -> new ArrayList<>()).add(d.yaml()));
        List<String> files = new ArrayList<>();
        for (Map.Entry<String, List<String>> kind : byKind.entrySet()) {
            String file = kebab(kind.getKey()) + ".yaml";
            Files.writeString(outputDir.resolve(file), String.join("---\n", kind.getValue()));
            files.add(file);
        }
        Files.writeString(outputDir.resolve("kustomization.yaml"), "apiVersion: kustomize.config.k8s.io/v1beta1\n"
                + "kind: Kustomization\nresources:\n" + String.join("", files.stream().map(f -> "- " + f + "\n").toList()));
        spec.commandLine().getOut().println("Wrote " + String.join(", ", files) + " and kustomization.yaml to " + outputDir
                + "; apply them with: kubectl apply -k " + outputDir);
        spec.commandLine().getOut().flush();
    }

    /** The operator's args: the run options of this command line, the probes and metrics, as docs/operations.md says. */
    private List<String> deploymentArgs(OperatorPlan plan) {
        List<String> args = new ArrayList<>(List.of("run"));
        args.addAll(runOptions());
        if (args.stream().noneMatch(arg -> arg.startsWith("--health-probe-bind-address"))) {
            args.add("--health-probe-bind-address=:" + HEALTH_PORT);
        }
        boolean secure = plan.settings().metrics.secure;
        if (args.stream().noneMatch(arg -> arg.startsWith("--metrics-bind-address"))) {
            args.add("--metrics-bind-address=:" + (secure ? SECURE_METRICS_PORT : METRICS_PORT));
        }
        if (secure && !args.contains("--metrics-secure")) {
            args.add("--metrics-secure");
        }
        if (args.stream().noneMatch(arg -> arg.startsWith("--log-format"))) {
            args.add("--log-format=json");
        }
        // In the image the handlers are compiled classes on the classpath: .java files and jars become their classes.
        plan.handlerClasses().forEach(type -> args.add(type.getName()));
        return args;
    }

    /** The run options as given on this command line, except those for this machine's cluster access. */
    private List<String> runOptions() {
        Set<OptionSpec> runOptions = new LinkedHashSet<>(spec.mixins().get("options").options());
        List<String> args = new ArrayList<>();
        // A repeated option is matched once per occurrence, each time with all its values: each once, then.
        for (OptionSpec option : new LinkedHashSet<>(spec.commandLine().getParseResult().matchedOptions())) {
            if (!runOptions.contains(option) || LOCAL_OPTIONS.contains(option.longestName())) {
                continue;
            }
            if (option.arity().max() == 0) {
                boolean on = Boolean.TRUE.equals(option.getValue());
                args.add(on ? option.longestName() : "--no-" + option.longestName().substring(2));
            } else {
                option.originalStringValues().forEach(value -> args.add(option.longestName() + "=" + value));
            }
        }
        return args;
    }

    /** {@return the port of an address option among the args, e.g. 8443 of {@code --metrics-bind-address=:8443}} */
    static int port(List<String> args, String option) {
        String value = args.stream().filter(arg -> arg.startsWith(option + "=")).findFirst().orElseThrow();
        return Integer.parseInt(value.substring(value.lastIndexOf(':') + 1));
    }

    /** DatabaseOperator → database-operator. */
    static String defaultName(Class<?> handlers) {
        return kebab(handlers.getSimpleName());
    }

    private static String kebab(String camel) {
        return Stream.of(camel.split("(?<=[a-z0-9])(?=[A-Z])")).map(part -> part.toLowerCase(Locale.ROOT))
                .reduce((a, b) -> a + "-" + b).orElse(camel.toLowerCase(Locale.ROOT));
    }
}
