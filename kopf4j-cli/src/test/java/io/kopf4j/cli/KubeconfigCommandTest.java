package io.kopf4j.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.ServiceAccountBuilder;
import io.fabric8.kubernetes.api.model.rbac.RoleBindingBuilder;
import io.fabric8.kubernetes.api.model.rbac.RoleBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.kopf4j.envtest.LocalCluster;
import io.kopf4j.envtest.LocalClusterExtension;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** {@code kopf4j kubeconfig}: a ServiceAccount's credentials from the shell, with exactly its RBAC. */
@ExtendWith(LocalClusterExtension.class)
class KubeconfigCommandTest {
    @TempDir
    Path dir;

    @Test
    void theKubeconfigAuthenticatesAsTheServiceAccountWithOnlyItsGrants(LocalCluster cluster) throws Exception {
        KubernetesClient admin = cluster.client();
        admin.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName("sa-test").endMetadata().build())
                .serverSideApply();
        admin.serviceAccounts().inNamespace("sa-test").resource(new ServiceAccountBuilder().withNewMetadata()
                .withName("reader").endMetadata().build()).serverSideApply();
        admin.rbac().roles().inNamespace("sa-test").resource(new RoleBuilder().withNewMetadata().withName("reader")
                .endMetadata().addNewRule().withApiGroups("").withResources("configmaps").withVerbs("list").endRule()
                .build()).serverSideApply();
        admin.rbac().roleBindings().inNamespace("sa-test").resource(new RoleBindingBuilder().withNewMetadata()
                .withName("reader").endMetadata().withNewRoleRef("rbac.authorization.k8s.io", "Role", "reader")
                .addNewSubject().withKind("ServiceAccount").withName("reader").withNamespace("sa-test").endSubject()
                .build()).serverSideApply();

        Path file = dir.resolve("sa.kubeconfig");
        CommandResult result = CommandResult.kopf4j("kubeconfig", "--kubeconfig", cluster.kubeconfig().toString(),
                "--service-account", "sa-test/reader", "--duration", "30m", "-o", file.toString());
        assertThat(result.code()).as(result.err()).isZero();
        assertThat(result.err()).isEmpty();
        assertThat(result.out().strip()).isEqualTo(file.toString());
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).isEqualTo("rw-------");
        assertThat(Files.readString(file)).contains("namespace: \"sa-test\"", "current-context: \"system:serviceaccount:sa-test:reader\"")
                .doesNotContain("client-certificate");

        try (KubernetesClient reader = new KubernetesClientBuilder()
                .withConfig(io.fabric8.kubernetes.client.Config.fromKubeconfig(Files.readString(file))).build()) {
            assertThat(reader.configMaps().list().getItems()).isNotNull();   // in the context's namespace, sa-test
            assertThatThrownBy(() -> reader.pods().inNamespace("sa-test").list())
                    .isInstanceOfSatisfying(KubernetesClientException.class, e -> {
                        assertThat(e.getCode()).isEqualTo(403);
                        assertThat(e.getMessage()).contains("system:serviceaccount:sa-test:reader");
                    });
        }
    }

    @Test
    void badInputIsOneErrorNamingIt(LocalCluster cluster) {
        String kubeconfig = cluster.kubeconfig().toString();
        assertThat(CommandResult.kopf4j("kubeconfig", "--kubeconfig", kubeconfig, "--service-account", "reader").lastErrorLine())
                .isEqualTo("kopf4j: error: --service-account reader: expected NAMESPACE/NAME, e.g. operators/my-operator");
        assertThat(CommandResult.kopf4j("kubeconfig", "--kubeconfig", kubeconfig, "--service-account", "default/none").lastErrorLine())
                .isEqualTo("kopf4j: error: no ServiceAccount default/none at " + cluster.client().getMasterUrl());
        assertThat(CommandResult.kopf4j("kubeconfig", "--kubeconfig", kubeconfig, "--service-account", "default/default",
                "--duration", "5m").lastErrorLine())
                .isEqualTo("kopf4j: error: --duration 5m: the API server issues tokens for 10m or more");
    }
}
