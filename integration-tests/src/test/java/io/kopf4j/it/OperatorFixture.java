package io.kopf4j.it;

import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.rbac.PolicyRule;
import io.fabric8.kubernetes.api.model.rbac.PolicyRuleBuilder;
import io.fabric8.kubernetes.api.model.rbac.RoleBindingBuilder;
import io.fabric8.kubernetes.api.model.rbac.RoleBuilder;
import io.kopf4j.Operator;
import io.kopf4j.envtest.LocalCluster;
import io.kopf4j.envtest.TemporaryNamespace;
import io.kopf4j.testing.KopfHarness;
import io.kopf4j.testing.KopfRunner;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * One test's operator setup: the test cluster with the KopfExample CRD, a namespace the operator
 * serves, its KopfExample objects, and the operator run in one of three ways: the command line in
 * this JVM ({@link #run}), embedded ({@link #operator()}, {@link #start}), or the command line in a
 * JVM of its own, to be signalled or killed ({@link #runInOwnJvm}).
 *
 * <pre>{@code
 * OperatorFixture fixture = new OperatorFixture(cluster, namespace);
 * try (KopfRunner runner = fixture.run(Handlers.class)) {
 *     fixture.examples().create("ex", Map.of("a", 1));
 *     await().until(() -> runner.output().contains(fixture.about("ex") + "Handler 'create' succeeded."));
 * }
 * }</pre>
 */
final class OperatorFixture {
    /** A schema for {@link #installCrd} that keeps every field. */
    static final String ANY_FIELDS = "{type: object, x-kubernetes-preserve-unknown-fields: true}";

    /** How long an operator may take to start: to list its resources, or to log that it serves its handlers. */
    private static final Duration STARTUP = Duration.ofSeconds(60);

    private final LocalCluster cluster;
    private final String namespace;
    private final KopfExamples examples;

    /** Installs the KopfExample CRD (if not yet there), for objects in the namespace. */
    OperatorFixture(LocalCluster cluster, TemporaryNamespace namespace) {
        this(cluster, namespace.name());
    }

    /** The fixture of a {@code @KopfTest}: its cluster and namespace. */
    OperatorFixture(KopfHarness kopf) {
        this(kopf.cluster(), kopf.namespace());
    }

    private OperatorFixture(LocalCluster cluster, String namespace) {
        this.cluster = cluster;
        this.namespace = namespace;
        this.examples = new KopfExamples(cluster, namespace);
    }

    /** {@return the namespace of the objects, which the operator serves} */
    String namespace() {
        return namespace;
    }

    /** The KopfExample objects in the namespace. */
    KopfExamples examples() {
        return examples;
    }

    /** The objects of another kind in the namespace, e.g. of a CRD from {@link #installCrd}. */
    KopfExamples objects(String apiVersion, String kind) {
        return new KopfExamples(cluster.client(), namespace, apiVersion, kind);
    }

    /**
     * Installs a namespaced CRD, served as version v1 with the status subresource, and waits until it
     * is served.
     *
     * @param schema the openAPIV3Schema in YAML's flow style, e.g. {@link #ANY_FIELDS}
     */
    void installCrd(String group, String plural, String kind, String schema) throws IOException {
        Path file = Files.createTempFile(plural, ".yaml");
        try {
            cluster.apply(Files.writeString(file, """
                    apiVersion: apiextensions.k8s.io/v1
                    kind: CustomResourceDefinition
                    metadata: {name: %2$s.%1$s}
                    spec:
                      group: %1$s
                      scope: Namespaced
                      names: {plural: %2$s, singular: %3$s, kind: %4$s}
                      versions:
                      - {name: v1, served: true, storage: true, subresources: {status: {}}, schema: {openAPIV3Schema: %5$s}}
                    """.formatted(group, plural, kind.toLowerCase(Locale.ROOT), kind, schema)));
        } finally {
            Files.delete(file);
        }
    }

    /**
     * Allows a user (e.g. of {@link LocalCluster#kubeconfigFor}) these verbs on the KopfExamples of
     * the namespace and their status.
     */
    void grant(String user, String... verbs) {
        role(user, user, new PolicyRuleBuilder().withApiGroups("kopf.dev").withResources("kopfexamples", "kopfexamples/status")
                .withVerbs(verbs).build());
    }

    /** Allows a user these verbs on the Kubernetes Events of the namespace. */
    void grantEvents(String user, String... verbs) {
        role(user + "-events", user, new PolicyRuleBuilder().withApiGroups("").withResources("events").withVerbs(verbs).build());
    }

    private void role(String name, String user, PolicyRule rule) {
        cluster.client().rbac().roles().inNamespace(namespace).resource(new RoleBuilder()
                .withNewMetadata().withName(name).endMetadata().addToRules(rule).build()).create();
        cluster.client().rbac().roleBindings().inNamespace(namespace).resource(new RoleBindingBuilder()
                .withNewMetadata().withName(name).endMetadata()
                .withNewRoleRef("rbac.authorization.k8s.io", "Role", name)
                .addNewSubject().withKind("User").withName(user).withApiGroup("rbac.authorization.k8s.io").endSubject()
                .build()).create();
    }

    /** What the object logger puts before each line about an object of the namespace: {@code [namespace/name] }. */
    String about(String name) {
        return "[" + namespace + "/" + name + "] ";
    }

    /**
     * Starts {@code kopf4j run -v -n <namespace> <options> <handlers>} in this JVM with the admin's
     * kubeconfig, and returns once the existing objects are listed (or after a minute).
     */
    KopfRunner run(Class<?> handlers, String... options) {
        return run(cluster.kubeconfig(), List.of(handlers), options);
    }

    /** As {@link #run(Class, String...)}, with another kubeconfig (a proxy's) and the handlers of several classes. */
    KopfRunner run(Path kubeconfig, List<Class<?>> handlers, String... options) {
        List<String> args = new ArrayList<>(List.of("run", "-v", "-n", namespace));
        args.addAll(List.of(options));
        handlers.forEach(type -> args.add(type.getName()));
        return KopfRunner.start(kubeconfig, STARTUP, args.toArray(String[]::new));
    }

    /** An embedded operator serving the namespace with the admin's kubeconfig: add its handlers and settings. */
    Operator.Builder operator() {
        return Operator.builder().namespaces(namespace).kubeconfig(cluster.kubeconfig());
    }

    /**
     * Builds and starts the operator, and returns it once the existing objects are listed, so that
     * objects created afterwards are new to it.
     *
     * @throws IllegalStateException if it has not listed them within a minute (the operator is closed)
     */
    Operator start(Operator.Builder builder) throws InterruptedException {
        Operator operator = builder.build();
        try {
            operator.start();
            if (!operator.awaitListed(STARTUP)) {
                throw new IllegalStateException("the operator did not list its resources within " + STARTUP.toSeconds() + " s");
            }
            return operator;
        } catch (RuntimeException | InterruptedException e) {
            operator.close();
            throw e;
        }
    }

    /**
     * Starts {@code kopf4j run -n <namespace> <options> <handlers>} in a JVM of its own with the
     * admin's kubeconfig, its output going to {@code log}, and returns once it serves its handlers.
     *
     * @param environment variables added to the process' environment
     */
    Process runInOwnJvm(Path log, Map<String, String> environment, Class<?> handlers, String... options) throws Exception {
        return runInOwnJvm(List.of(), log, environment, handlers, options);
    }

    /**
     * As {@link #runInOwnJvm(Path, Map, Class, String...)}, with the JVM options of the {@code kopf4j}
     * launcher ({@code scripts/jvm-options.sh}, {@code KOPF4J_JAVA_OPTS} from {@code environment} included).
     */
    Process runWithLauncherJvmOptions(Path log, Map<String, String> environment, Class<?> handlers) throws Exception {
        Path root = Path.of(System.getProperty("user.dir")).toAbsolutePath();
        while (!Files.exists(root.resolve("scripts/jvm-options.sh"))) {
            root = root.getParent();
        }
        ProcessBuilder script = new ProcessBuilder(root.resolve("scripts/jvm-options.sh").toString(), System.getProperty("java.home"));
        script.environment().putAll(environment);
        Process options = script.redirectErrorStream(true).start();
        List<String> jvmOptions = new String(options.getInputStream().readAllBytes()).lines().toList();
        if (options.waitFor() != 0) {
            throw new IllegalStateException("scripts/jvm-options.sh failed: " + jvmOptions);
        }
        return runInOwnJvm(jvmOptions, log, environment, handlers);
    }

    private Process runInOwnJvm(List<String> jvmOptions, Path log, Map<String, String> environment, Class<?> handlers,
                                String... options) throws Exception {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
        command.addAll(jvmOptions);
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), "io.kopf4j.cli.Main", "run", "-n", namespace,
                "--kubeconfig", cluster.kubeconfig().toString()));
        command.addAll(List.of(options));
        command.add(handlers.getName());
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
        builder.environment().putAll(environment);
        Process process = builder.start();
        try {
            await().atMost(STARTUP).until(() -> Files.readString(log).contains("handler(s) in namespaces [" + namespace + "]"));
            return process;
        } catch (RuntimeException e) {
            process.destroyForcibly();
            throw e;
        }
    }
}
