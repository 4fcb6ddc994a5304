import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.kopf4j.Children;
import java.util.List;
import java.util.Map;

/**
 * The children benchmark's operator (bench/run-children.sh, io.kopf4j.bench.ChildrenBenchmark): a
 * ConfigMap, a Deployment and a headless Service (the local cluster has a few hundred service IPs)
 * per KopfExample, and the KopfExample's Ready condition from their readiness.
 *
 *   ./kopf4j run -n bench bench/BenchChildren.java
 */
public class BenchChildren {
    @Children(value = "kopfexamples", kinds = {ConfigMap.class, Deployment.class, Service.class}, readyCondition = "Ready")
    public List<HasMetadata> children(String name) {
        Map<String, String> pods = Map.of("app", name);
        return List.of(
                new ConfigMapBuilder().withNewMetadata().withName(name + "-config").endMetadata().addToData("k", "v").build(),
                new DeploymentBuilder().withNewMetadata().withName(name + "-web").endMetadata()
                        .withNewSpec().withReplicas(1).withNewSelector().withMatchLabels(pods).endSelector()
                        .withNewTemplate().withNewMetadata().withLabels(pods).endMetadata()
                        .withNewSpec().addNewContainer().withName("web").withImage("nginx").endContainer().endSpec()
                        .endTemplate().endSpec().build(),
                new ServiceBuilder().withNewMetadata().withName(name + "-web").endMetadata()
                        .withNewSpec().withClusterIP("None").withSelector(pods)
                        .addNewPort().withName("http").withPort(80).withProtocol("TCP").endPort()
                        .endSpec().build());
    }
}
