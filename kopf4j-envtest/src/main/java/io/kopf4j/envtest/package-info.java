/**
 * A real Kubernetes control plane on this machine, for tests and for trying an operator by hand:
 * etcd and kube-apiserver as child processes ({@link io.kopf4j.envtest.LocalCluster}), or kept
 * across JVMs ({@link io.kopf4j.envtest.KeptCluster}, {@code kopf4j cluster}); their binaries
 * ({@link io.kopf4j.envtest.EnvtestAssets}), and a JUnit 5 extension that shares one cluster
 * among the tests of a run ({@link io.kopf4j.envtest.LocalClusterExtension}).
 *
 * <pre>{@code
 * try (LocalCluster cluster = LocalCluster.start()) {
 *     cluster.apply(Path.of("crd.yaml"));
 *     KubernetesClient client = cluster.client();
 * }
 * }</pre>
 *
 * <p>Kopf has none: its tests use a cluster of the developer's (k3d, minikube).
 */
package io.kopf4j.envtest;
