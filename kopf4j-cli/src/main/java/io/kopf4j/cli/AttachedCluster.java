package io.kopf4j.cli;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.kopf4j.envtest.ClusterObjects;
import io.kopf4j.envtest.KeptCluster;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Stack;
import picocli.CommandLine;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.CommandSpec;

/**
 * {@code kopf4j run --local-cluster NAME}: the operator runs on the kept cluster NAME of
 * {@code kopf4j cluster start NAME}, which stays running when the operator exits.
 *
 * <pre>{@code
 * Path kubeconfig = AttachedCluster.kubeconfig("demo", List.of(Path.of("crd.yaml")), out);
 * }</pre>
 */
final class AttachedCluster {
    private AttachedCluster() {
    }

    /**
     * The kept cluster's kubeconfig, once the {@code --crd} files are applied to it.
     *
     * @throws io.kopf4j.OperatorException if the cluster does not run
     */
    static Path kubeconfig(String name, List<Path> crds, PrintWriter out) {
        KeptCluster cluster = KeptCluster.running(name);
        if (!crds.isEmpty()) {   // a client costs ~0.3 s of the start (its key store, fabric8's classes): only for --crd
            try (KubernetesClient client = cluster.client()) {
                new ClusterObjects(client).apply(crds.toArray(Path[]::new));
            }
        }
        out.println("Local cluster " + name + ": " + cluster.serverUrl().orElseThrow() + " (kept running when the operator exits)");
        out.println("Kubeconfig:    " + cluster.kubeconfig());
        out.flush();
        return cluster.kubeconfig();
    }

    /**
     * The value of {@code --local-cluster}: the next argument if it is a cluster's name (so
     * {@code --local-cluster Handlers.java} still starts a throw-away cluster for those handlers),
     * else the empty string, a throw-away cluster's mark. {@code --local-cluster=NAME} always names one.
     */
    static final class Value implements CommandLine.IParameterPreprocessor {
        /** The option's value for a throw-away cluster. */
        static final String THROW_AWAY = "";

        @Override
        public boolean preprocess(Stack<String> args, CommandSpec command, ArgSpec option, Map<String, Object> info) {
            boolean attached = "=".equals(info.get("separator"));
            if (attached && !KeptCluster.isName(args.peek())) {
                throw new CommandLine.ParameterException(command.commandLine(), "Invalid cluster name '" + args.peek()
                        + "' for --local-cluster: lowercase letters, digits and inner dashes, e.g. default or demo-1");
            }
            option.setValue(attached || (!args.isEmpty() && KeptCluster.isName(args.peek())) ? args.pop() : THROW_AWAY);
            return true;
        }
    }
}
