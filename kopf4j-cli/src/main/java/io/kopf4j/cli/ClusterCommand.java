package io.kopf4j.cli;

import io.kopf4j.envtest.KeptCluster;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code kopf4j cluster start|stop|status|list}: a local cluster ({@link KeptCluster}) that
 * outlives the command and the operators run on it, so that an operator can be stopped and started
 * again on the same objects. {@code kopf4j run --local-cluster NAME} attaches to it.
 *
 * <pre>
 * kopf4j cluster start demo
 * kopf4j run --local-cluster demo --crd examples/crd.yaml examples/01-minimal/Example.java
 * kopf4j cluster stop demo
 * </pre>
 */
@Command(name = "cluster", mixinStandardHelpOptions = true,
        description = {"A local cluster (kube-apiserver + etcd on 127.0.0.1) that outlives the command:",
                "operators attach to it with `kopf4j run --local-cluster NAME`, and its objects",
                "stay from one operator run to the next, and from a stop to the next start."},
        subcommands = {ClusterCommand.Start.class, ClusterCommand.Stop.class, ClusterCommand.Status.class,
                ClusterCommand.ListClusters.class},
        footer = {"", "Examples:",
                "  kopf4j cluster start                # the cluster named default",
                "  export KUBECONFIG=~/.local/share/kopf4j/clusters/default/kubeconfig",
                "  kopf4j run --local-cluster default --crd examples/crd.yaml \\",
                "      examples/01-minimal/Example.java",
                "  kopf4j set-status --local-cluster default pvc my-claim '{\"phase\":\"Bound\"}'",
                "  kopf4j cluster stop                 # the data stays for the next start",
                "  kopf4j cluster stop --delete        # and goes"})
final class ClusterCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        throw new CommandLine.ParameterException(spec.commandLine(), "name a subcommand: start, stop, status or list");
    }

    /** The cluster a subcommand is about: its name, and its data directory if not the default. */
    static final class Which {
        @Parameters(index = "0", arity = "0..1", paramLabel = "NAME", defaultValue = "default",
                description = "The cluster's name (lowercase letters, digits, dashes). Default: ${DEFAULT-VALUE}.")
        String name;

        @Option(names = "--data-dir", paramLabel = "DIR",
                description = {"Its data: PKI, etcd's data, logs, kubeconfig, state.",
                        "Default: $XDG_DATA_HOME/kopf4j/clusters/NAME,",
                        "else ~/.local/share/kopf4j/clusters/NAME.",
                        "`run --local-cluster NAME` looks there only;",
                        "for another DIR: run --kubeconfig DIR/kubeconfig."})
        Path dataDir;

        @Spec(Spec.Target.MIXEE)
        CommandSpec spec;

        KeptCluster cluster() {
            if (!KeptCluster.isName(name)) {
                throw new CommandLine.ParameterException(spec.commandLine(), "Invalid cluster name '" + name
                        + "': lowercase letters, digits and inner dashes, e.g. default or demo-1");
            }
            return dataDir == null ? KeptCluster.named(name) : KeptCluster.at(name, dataDir);
        }
    }

    /** What runs beside the control plane, as `start` and `status` say it. */
    static String controllers(KeptCluster cluster) {
        return cluster.controllersRunning()
                ? "kube-controller-manager (garbage collector, namespaces, Deployments, StatefulSets, Jobs; no kubelet: Pods stay Pending)"
                : "none (started with --no-controllers, or no kube-controller-manager among the binaries)";
    }

    @Command(name = "start", mixinStandardHelpOptions = true,
            description = {"Starts the local cluster NAME, unless it runs already, and prints its kubeconfig.",
                    "Its processes outlive this command; their output goes to DIR/logs."})
    static final class Start implements Callable<Integer> {
        @Mixin
        Which which;

        @Option(names = "--no-controllers",
                description = "Run no kube-controller-manager (no garbage collector, no namespace deletion, no workload controllers).")
        boolean noControllers;

        @Override
        public Integer call() {
            KeptCluster cluster = which.cluster();
            boolean started = cluster.start(!noControllers);
            PrintWriter out = which.spec.commandLine().getOut();
            out.println("Local cluster " + cluster.name() + (started ? " started: " : " is already running: ")
                    + cluster.serverUrl().orElseThrow() + " (Kubernetes " + cluster.serverVersion() + ")");
            out.println("Controllers: " + controllers(cluster));
            out.println("Data:       " + cluster.dataDir());
            out.println("Kubeconfig: " + cluster.kubeconfig());
            out.println("  export KUBECONFIG=" + cluster.kubeconfig());
            out.println("Run an operator on it:  kopf4j run --local-cluster " + cluster.name() + " [--crd FILE] HANDLERS");
            out.println("Stop it (keeping the data):  kopf4j cluster stop " + cluster.name() + stopArguments());
            out.flush();
            return 0;
        }

        private String stopArguments() {
            return which.dataDir == null ? "" : " --data-dir " + which.dataDir;
        }
    }

    @Command(name = "stop", mixinStandardHelpOptions = true,
            description = "Stops the local cluster NAME; its data stays for the next start, unless --delete.")
    static final class Stop implements Callable<Integer> {
        @Mixin
        Which which;

        @Option(names = "--delete", description = "Also delete its data directory: objects, certificates, logs.")
        boolean delete;

        @Override
        public Integer call() {
            KeptCluster cluster = which.cluster();
            boolean running = cluster.isRunning();
            if (delete) {
                cluster.delete();
            } else {
                cluster.stop();
            }
            PrintWriter out = which.spec.commandLine().getOut();
            out.println("Local cluster " + cluster.name() + (running ? " stopped" : " was not running")
                    + (delete ? "; its data is deleted." : "; its data stays in " + cluster.dataDir()));
            out.flush();
            return 0;
        }
    }

    @Command(name = "status", mixinStandardHelpOptions = true,
            description = "Says whether the local cluster NAME runs, and where its server, kubeconfig and data are.",
            footer = {"", "Exit codes:", "  0  it runs", "  3  it does not run"})
    static final class Status implements Callable<Integer> {
        /** The exit code of a cluster that does not run, as LSB's status actions. */
        static final int NOT_RUNNING = 3;

        @Mixin
        Which which;

        @Override
        public Integer call() {
            KeptCluster cluster = which.cluster();
            PrintWriter out = which.spec.commandLine().getOut();
            boolean running = cluster.isRunning();
            out.println("Local cluster " + cluster.name() + ": " + (running ? "running" : "not running"));
            if (running) {
                out.println("Server:     " + cluster.serverUrl().orElseThrow());
                out.println("Kubernetes: " + cluster.serverVersion());
                out.println("Kubeconfig: " + cluster.kubeconfig());
                out.println("Controllers: " + controllers(cluster));
            }
            out.println("Data:       " + cluster.dataDir());
            out.flush();
            return running ? 0 : NOT_RUNNING;
        }
    }

    @Command(name = "list", mixinStandardHelpOptions = true,
            description = "Lists the local clusters in the default data directory, running or not.")
    static final class ListClusters implements Callable<Integer> {
        @Spec
        CommandSpec spec;

        @Override
        public Integer call() {
            PrintWriter out = spec.commandLine().getOut();
            List<KeptCluster> clusters = KeptCluster.list();
            if (clusters.isEmpty()) {
                out.println("No local clusters in " + KeptCluster.home() + "; start one with `kopf4j cluster start`.");
            }
            for (KeptCluster cluster : clusters) {
                out.printf("%-16s %-12s %s%n", cluster.name(), cluster.isRunning() ? "running" : "stopped",
                        cluster.serverUrl().orElse(""));
            }
            out.flush();
            return 0;
        }
    }
}
