import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.kopf4j.cli.Main;
import io.kopf4j.envtest.LocalCluster;
import io.kopf4j.envtest.LocalClusterExtension;
import io.kopf4j.envtest.TemporaryNamespace;
import io.kopf4j.testing.KopfRunner;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Runs examples/webapp as `kopf4j run` does, against a real API server with its controllers (no
 * kubelet: the test makes the Pods ready) and under the RBAC that `kopf4j manifests` generates for
 * it: the three children applied as the WebApp's own, its Ready condition following the
 * Deployment, a hand edit put back, a deleted child recreated, a new message applied, and the
 * children gone with the WebApp.
 */
@ExtendWith(LocalClusterExtension.class)
class WebAppOperatorTest {
    private static final String OPERATOR = "webapp/WebAppOperator.java";
    private static final Duration WAIT = Duration.ofSeconds(30);

    @Test
    void keepsThePageTheServerAndTheServiceAndSaysWhenTheyAreReady(LocalCluster cluster, TemporaryNamespace namespace)
            throws Exception {
        cluster.apply(Path.of("webapp/crd.yaml"));
        KubernetesClient client = cluster.client();
        String ns = namespace.name();
        List<String> options = List.of("-v", "--standalone", "-n", ns);
        Path kubeconfig = GeneratedRbac.kubeconfig(cluster, ns, List.of("-v", "--standalone", "-n", ns, "--crd",
                "webapp/crd.yaml"), OPERATOR);
        var webapps = client.genericKubernetesResources("kopf4j.dev/v1", "WebApp").inNamespace(ns);
        var pages = client.configMaps().inNamespace(ns);
        try (KopfRunner runner = KopfRunner.start(kubeconfig, concat("run", options, OPERATOR))) {
            GenericKubernetesResource hello;
            try (InputStream yaml = Files.newInputStream(Path.of("webapp/webapp.yaml"))) {
                hello = webapps.load(yaml).create();
            }
            await().atMost(WAIT).until(() -> client.services().inNamespace(ns).withName("hello").get() != null);
            ConfigMap page = pages.withName("hello-page").get();
            assertThat(page.getData()).containsEntry("index.html", "<h1>hello from kopf4j</h1>\n");
            assertThat(page.getMetadata().getOwnerReferences()).extracting(OwnerReference::getUid)
                    .containsExactly(hello.getMetadata().getUid());
            assertThat(client.apps().deployments().inNamespace(ns).withName("hello").get().getSpec().getReplicas())
                    .isEqualTo(2);

            await().atMost(WAIT).untilAsserted(() -> assertThat(ready(webapps.withName("hello").get()))
                    .containsEntry("status", "False").containsEntry("reason", "ChildrenNotReady")
                    .containsEntry("message", "2/3 ready; Deployment '" + ns + "/hello': Available: 0/2"));
            cluster.readyPods(ns, Map.of("app.kubernetes.io/instance", "hello"), 2);
            await().atMost(WAIT).untilAsserted(() -> assertThat(ready(webapps.withName("hello").get()))
                    .containsEntry("status", "True").containsEntry("message", "3/3 ready"));

            pages.withName("hello-page").edit(edited -> new ConfigMapBuilder(edited).addToData("index.html", "defaced").build());
            await().atMost(WAIT).until(() -> pages.withName("hello-page").get().getData().get("index.html").startsWith("<h1>"));

            String serviceUid = client.services().inNamespace(ns).withName("hello").get().getMetadata().getUid();
            client.services().inNamespace(ns).withName("hello").delete();
            await().atMost(WAIT).until(() -> {
                Service again = client.services().inNamespace(ns).withName("hello").get();
                return again != null && !again.getMetadata().getUid().equals(serviceUid);
            });

            webapps.withName("hello").edit(edited -> {
                @SuppressWarnings("unchecked")
                Map<String, Object> spec = (Map<String, Object>) edited.getAdditionalProperties().get("spec");
                spec.put("message", "hello again");
                return edited;
            });
            await().atMost(WAIT).until(() -> pages.withName("hello-page").get().getData().get("index.html")
                    .equals("<h1>hello again</h1>\n"));

            webapps.withName("hello").delete();
            await().atMost(Duration.ofSeconds(90)).until(() -> pages.withName("hello-page").get() == null
                    && client.apps().deployments().inNamespace(ns).withName("hello").get() == null);
            GeneratedRbac.assertNoForbidden(runner.output());
        }
        GeneratedRbac.assertCallsWithinRulesAndRulesUsed(cluster, ns, Map.of(
                "delete configmaps in NAMESPACE", "children are pruned when no longer returned: this WebApp always returns all three",
                "delete apps/deployments in NAMESPACE", "the same",
                "delete services in NAMESPACE", "the same"));
    }

    @Test
    void theCrdIsGeneratedFromTheOperatorsClasses() {
        Main.Captured result = Main.capture("crd", OPERATOR);
        assertThat(result.code()).as(result.err()).isZero();
        assertThat(Path.of("webapp/crd.yaml")).as("regenerate it: ./kopf4j crd examples/webapp/WebAppOperator.java"
                + " > examples/webapp/crd.yaml").hasContent(result.out());
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> ready(GenericKubernetesResource webapp) {
        Object status = webapp.getAdditionalProperties().get("status");
        Object conditions = status instanceof Map<?, ?> map ? map.get("conditions") : null;
        return conditions instanceof List<?> list ? list.stream().map(item -> (Map<String, Object>) item)
                .filter(item -> "Ready".equals(item.get("type"))).findFirst().orElse(Map.of()) : Map.of();
    }

    private static String[] concat(String command, List<String> options, String file) {
        List<String> all = new java.util.ArrayList<>(List.of(command));
        all.addAll(options);
        all.add(file);
        return all.toArray(String[]::new);
    }
}
