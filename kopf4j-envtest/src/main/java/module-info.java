/**
 * kopf4j's local control plane: etcd and kube-apiserver on this machine ({@link io.kopf4j.envtest.LocalCluster},
 * {@link io.kopf4j.envtest.KeptCluster}), their binaries, certificates and kubeconfigs, and the JUnit 5
 * extension that shares one cluster among a run's tests ({@link io.kopf4j.envtest.LocalClusterExtension}).
 */
@SuppressWarnings({"requires-automatic", "requires-transitive-automatic"})
module io.kopf4j.envtest {
    exports io.kopf4j.envtest;

    // In its API's signatures: the cluster's client and Resource.
    requires transitive io.kopf4j;
    requires kubernetes.model.core;
    requires kubernetes.model.apiextensions;   // the CRDs applied, awaited until served
    requires kubernetes.model.admissionregistration;   // TokenRequest, for ServiceAccounts' kubeconfigs
    requires kubernetes.model.rbac;   // RbacGrants: the Roles' and ClusterRoles' rules
    requires com.fasterxml.jackson.databind;   // the audit log's JSON lines
    requires java.net.http;   // the API server's readiness, asked without a client
    // Optional, as in the pom: only LocalClusterExtension uses JUnit, and tests that use it have JUnit.
    requires static org.junit.jupiter.api;
}
