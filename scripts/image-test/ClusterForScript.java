import io.kopf4j.envtest.LocalCluster;
import java.io.IOException;
import java.nio.file.Path;

/**
 * A throw-away cluster for a shell script: starts a LocalCluster, applies the YAML files given as
 * arguments (CRDs are awaited until served), prints "kubeconfig PATH" and "kubectl PATH", and stops
 * the cluster when its standard input closes, which a script's end (or death) does to a coprocess.
 * Run by the Java source launcher with the kopf4j command's classpath:
 *
 * <pre>
 *   coproc CLUSTER { java -cp kopf4j-cli/target/kopf4j.jar scripts/image-test/ClusterForScript.java crd.yaml; }
 * </pre>
 */
public final class ClusterForScript {
    private ClusterForScript() {
    }

    public static void main(String[] args) throws IOException {
        try (LocalCluster cluster = LocalCluster.start()) {
            for (String file : args) {
                cluster.apply(Path.of(file));
            }
            System.out.println("kubeconfig " + cluster.kubeconfig());
            System.out.println("kubectl " + cluster.binaries().resolve("kubectl"));
            System.out.flush();
            while (System.in.read() >= 0) {
                // Anything written is ignored: only the end of the input stops the cluster.
            }
        }
    }
}
