package io.kopf4j.envtest;

/**
 * Starts a LocalCluster, prints its process ids, and waits to be killed: for testing that a JVM
 * ended by a signal leaves no etcd or kube-apiserver behind.
 */
public final class ClusterInChildJvm {
    private ClusterInChildJvm() {
    }

    public static void main(String[] args) throws InterruptedException {
        LocalCluster cluster = LocalCluster.start();
        System.out.println("pids " + cluster.processIds().stream().map(String::valueOf).reduce((a, b) -> a + " " + b).orElse(""));
        System.out.flush();
        Thread.sleep(Long.MAX_VALUE);
    }
}
