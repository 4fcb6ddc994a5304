package io.kopf4j.cli;

import io.kopf4j.Operator;
import io.kopf4j.envtest.DefaultKubeconfig;
import io.kopf4j.envtest.LocalCluster;
import io.kopf4j.internal.loading.RunOptions;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.function.UnaryOperator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code kopf4j run}: runs the operator until Ctrl-C (SIGINT) or SIGTERM, then stops it gracefully
 * and exits 0. With {@code --local-cluster} it first starts a throw-away cluster on this machine
 * and stops it again at exit, so nobody needs a cluster to try kopf4j; with
 * {@code --local-cluster NAME} it runs on the kept cluster of {@code kopf4j cluster start NAME}
 * ({@link AttachedCluster}) and leaves it running. Exit codes: 0 after a
 * signal, 1 when the operator cannot start or fails (e.g. loses its login), 2 for an invalid
 * command line, 3 when it did not stop within {@code settings.process.ultimateExitingTimeout}
 * after the signal.
 */
@Command(name = "run", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Runs an operator with the handlers in the given .java files, jars or classes.",
        footer = {"", "Examples:",
                "  kopf4j run --local-cluster --crd examples/crd.yaml \\",
                "      examples/01-minimal/Example.java",
                "  kopf4j cluster start demo     # a cluster kept from one run to the next",
                "  kopf4j run --local-cluster demo --crd examples/crd.yaml \\",
                "      examples/01-minimal/Example.java",
                "  kopf4j run -n default --kubeconfig ~/.kube/config Handlers.java",
                "  kopf4j run -A handlers.jar",
                "  CLASSPATH=app.jar kopf4j run -n 'team-*,!team-legacy' -m com.example.ops",
                "  kopf4j run -A --liveness=http://0.0.0.0:8080/healthz \\",
                "      --health-probe-bind-address=:8081 --metrics-bind-address=:8082 \\",
                "      --log-format=json Handlers.java",
                "  kopf4j run -n default --no-preflight Handlers.java   # no permission check",
                "  kopf4j run --reload --local-cluster --crd crd.yaml Handlers.java   # edit, save: reloaded",
                "",
                "Options default to environment variables KOPF4J_RUN_<OPTION>,",
                "e.g. KOPF4J_RUN_NAMESPACE, KOPF4J_RUN_LOG_FORMAT.",
                "",
                "Exit codes:",
                "  0  stopped by SIGINT or SIGTERM",
                "  1  cannot start (bad handlers, settings, login, cluster), or failed",
                "  2  invalid command line",
                "  3  did not stop within settings.process.ultimateExitingTimeout",
                "     (600 s) after the signal"})
final class RunCommand implements Callable<Integer> {
    private static final Logger LOG = LoggerFactory.getLogger(RunCommand.class);
    /** The exit code when the operator did not stop in time after a signal. */
    static final int ULTIMATE_EXIT_CODE = 3;

    @Mixin
    RunOptions options;

    @Option(names = "--local-cluster", arity = "0..1", paramLabel = "NAME", preprocessor = AttachedCluster.Value.class,
            description = {"Start a throw-away local kube-apiserver + etcd (on 127.0.0.1), with",
                    "kube-controller-manager's garbage collector and workload controllers, run the operator",
                    "against it, and stop it at exit. With NAME: run against the local cluster NAME of",
                    "`kopf4j cluster start NAME` instead, and leave it running at exit.",
                    "Its kubeconfig becomes the default for clients that handlers build themselves",
                    "(fabric8's kubeconfig system property)."})
    String localCluster;

    @Option(names = "--reload",
            description = {"Watch the .java handler sources (in a Maven layout, src/main/java and src/main/resources)",
                    "and, when a change is saved, compile them and swap the handlers: the running operator stops",
                    "as on SIGTERM and one with the new handlers starts. A compile error keeps the running one."})
    boolean reload;

    @Option(names = "--no-controllers",
            description = {"With a throw-away --local-cluster: run no kube-controller-manager (no garbage collector,",
                    "no namespace deletion, no Deployment/StatefulSet/Job controllers)."})
    boolean noControllers;

    @Option(names = "--crd", paramLabel = "FILE",
            description = "With --local-cluster: apply these YAML files (CRDs and objects) before the operator starts.")
    List<Path> crds = new ArrayList<>();

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws InterruptedException {
        options.configureLogging();
        if (!crds.isEmpty() && localCluster == null) {
            throw new IllegalStateException("--crd is only for --local-cluster; use kubectl apply for other clusters");
        }
        if (noControllers && !AttachedCluster.Value.THROW_AWAY.equals(localCluster)) {
            throw new IllegalStateException("--no-controllers is only for a throw-away --local-cluster;"
                    + " a kept one is started with `kopf4j cluster start --no-controllers NAME`");
        }
        CrdFiles.check(crds);   // a malformed file is named with its line before any cluster starts
        List<Path> sources = reload ? options.reloadableSources() : List.of();
        Operator.Builder builder = options.operatorBuilder();   // bad handlers fail before any cluster starts
        LocalCluster cluster = AttachedCluster.Value.THROW_AWAY.equals(localCluster) ? startCluster() : null;
        Path clusterKubeconfig = cluster != null ? cluster.kubeconfig()
                : localCluster != null ? AttachedCluster.kubeconfig(localCluster, crds, spec.commandLine().getOut()) : null;
        UnaryOperator<Operator.Builder> onCluster = clusterKubeconfig == null ? UnaryOperator.identity()
                : next -> next.kubeconfig(clusterKubeconfig).context(null);
        if (clusterKubeconfig != null) {
            // For the rest of the process: a handler's own new KubernetesClientBuilder().build() reaches it too.
            DefaultKubeconfig.use(clusterKubeconfig);
        }
        OperatorRun operator = new OperatorRun(onCluster.apply(builder).build(),
                reload ? () -> onCluster.apply(options.operatorBuilder()) : null, sources);
        builder = null;   // this frame lasts as long as the run: a reload's replaced handler classes must be collectable
        Runnable shutdown = () -> {
            operator.stop();
            if (cluster != null) {
                cluster.close();
            }
        };
        // A JVM exit by any other way (System.exit, SIGHUP) still stops the cluster's processes.
        Thread hook = new Thread(shutdown, "kopf4j-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        Signals.onTermination(signal -> {
            LOG.info("Signal {} is received. Operator is stopping.", signal);
            exitUltimately(operator.settings().process.ultimateExitingTimeout, signal, cluster);
            operator.stop();
        });
        try {
            operator.start();
            AotRecording.served();
            operator.awaitTermination();
            if (operator.failure().isPresent()) {
                throw operator.failure().get();
            }
        } finally {
            shutdown.run();
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException alreadyExiting) {
                // The hook runs anyway.
            }
        }
        return 0;
    }

    /**
     * Kopf's last resort after a signal: if the operator has not stopped by then (a cleanup handler
     * hangs, say), the process exits anyway, with code 3, after stopping the local cluster.
     */
    private static void exitUltimately(Duration timeout, String signal, LocalCluster cluster) {
        if (timeout == null) {
            return;
        }
        Thread.ofPlatform().daemon().name("kopf4j-ultimate-exit").start(() -> {
            try {
                Thread.sleep(timeout);
            } catch (InterruptedException e) {
                return;
            }
            LOG.error("The operator did not stop within {} s after {}; exiting.", timeout.toMillis() / 1000.0, signal);
            if (cluster != null) {
                cluster.close();
            }
            Runtime.getRuntime().halt(ULTIMATE_EXIT_CODE);
        });
    }

    private LocalCluster startCluster() {
        LocalCluster cluster = LocalCluster.builder().controllers(!noControllers).start();
        try {
            cluster.apply(crds.toArray(Path[]::new));
        } catch (RuntimeException e) {
            cluster.close();
            throw e;
        }
        PrintWriter out = spec.commandLine().getOut();
        Path kubectl = cluster.binaries().resolve("kubectl");
        out.println("Local cluster: " + cluster.serverUrl() + " (Kubernetes " + cluster.serverVersion() + ")");
        out.println("Kubeconfig:    " + cluster.kubeconfig());
        out.println("Try, in another terminal:");
        out.println("  " + TryHint.command(kubectl, cluster.kubeconfig(), crds));
        out.println("Ctrl-C stops the operator, then the cluster.");
        out.flush();
        return cluster;
    }
}
