import io.fabric8.crd.generator.annotation.PreserveUnknownFields;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Max;
import io.fabric8.generator.annotation.Min;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Version;
import io.kopf4j.Children;
import java.util.List;
import java.util.Map;

/**
 * A web site per WebApp: its page in a ConfigMap, a Deployment serving it, a Service in front, all
 * three declared by one method and kept so by kopf4j. A child edited by hand is put back, a deleted
 * one comes back, and the WebApp's {@code Ready} condition says whether all three are ready (the
 * Deployment's available replicas), updated by the children's own changes: no timer, no polling.
 *
 *   ./kopf4j run --local-cluster --crd examples/webapp/crd.yaml examples/webapp/WebAppOperator.java
 *   kubectl apply -f examples/webapp/webapp.yaml
 *   kubectl get webapps,configmaps,deployments,services
 *   kubectl get webapp hello -o jsonpath='{.status.conditions}'
 */
public class WebAppOperator {
    /** The WebApp resource; crd.yaml is generated from it: {@code ./kopf4j crd examples/webapp/WebAppOperator.java}. */
    @Group("kopf4j.dev")
    @Version("v1")
    public static class WebApp extends CustomResource<WebAppSpec, WebAppStatus> implements Namespaced {
    }

    /** What kopf4j writes: the Ready condition, and its own fields. */
    @PreserveUnknownFields
    public record WebAppStatus() {
    }

    /** What a WebApp asks for. */
    public record WebAppSpec(@Default("hello from kopf4j") String message, @Default("nginx:1.27") String image,
                             @Min(1) @Max(10) @Default("1") int replicas) {
    }

    @Children(value = "webapps.kopf4j.dev", kinds = {ConfigMap.class, Deployment.class, Service.class},
            readyCondition = "Ready")
    public List<HasMetadata> children(WebAppSpec spec, String name) {
        Map<String, String> pods = Map.of("app.kubernetes.io/instance", name);
        ConfigMap page = new ConfigMapBuilder().withNewMetadata().withName(name + "-page").endMetadata()
                .addToData("index.html", "<h1>" + spec.message() + "</h1>\n").build();
        Deployment server = new DeploymentBuilder().withNewMetadata().withName(name).endMetadata()
                .withNewSpec().withReplicas(spec.replicas()).withNewSelector().withMatchLabels(pods).endSelector()
                .withNewTemplate().withNewMetadata().withLabels(pods).endMetadata()
                .withNewSpec().addNewContainer().withName("web").withImage(spec.image())
                .addNewPort().withName("http").withContainerPort(80).withProtocol("TCP").endPort()
                .addNewVolumeMount().withName("page").withMountPath("/usr/share/nginx/html").endVolumeMount()
                .endContainer()
                .addNewVolume().withName("page").withNewConfigMap().withName(name + "-page").endConfigMap().endVolume()
                .endSpec().endTemplate().endSpec().build();
        Service front = new ServiceBuilder().withNewMetadata().withName(name).endMetadata()
                .withNewSpec().withSelector(pods)
                .addNewPort().withName("http").withPort(80).withProtocol("TCP").endPort().endSpec().build();
        return List.of(page, server, front);
    }
}
