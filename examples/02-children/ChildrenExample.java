import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.kopf4j.On;
import io.kopf4j.Permission;
import io.kopf4j.Spec;
import io.kopf4j.kits.Hierarchies;
import java.util.List;
import java.util.Map;

/**
 * Kopf's 02-children: a Pod for every KopfExample, made its child (namespace, name, labels, owner
 * reference), so that the Pod is deleted with the KopfExample by the garbage collector.
 *
 *   ./kopf4j run --local-cluster --crd examples/crd.yaml examples/02-children/ChildrenExample.java
 *   kubectl apply -f examples/obj.yaml
 *   kubectl get kopfexamples                   # CHILDREN: the pod's uid
 *   kubectl get pod -l somelabel=somevalue     # kopf-example-1-xxxxx
 *
 * The handler id is Kopf's, so that the CRD's CHILDREN column finds status.create_fn.children.
 */
@Permission(resources = "pods", verbs = "create")
public class ChildrenExample {
    @On.Create(value = "kopfexamples", id = "create_fn")
    public Map<String, Object> create(Spec spec, KubernetesClient client) {
        // Render the pod yaml with some spec fields used in the template.
        String yaml = """
                apiVersion: v1
                kind: Pod
                spec:
                  containers:
                  - name: the-only-one
                    image: busybox
                    command: ["sh", "-x", "-c"]
                    args:
                    - |
                      echo "FIELD=$FIELD"
                      sleep %s
                    env:
                    - name: FIELD
                      value: %s
                """.formatted(spec.getOrDefault("duration", 0), spec.getOrDefault("field", "default-value"));
        Pod pod = client.getKubernetesSerialization().unmarshal(yaml, Pod.class);

        // Make it our child: assign the namespace, name, labels, owner references, etc.
        Hierarchies.adopt(pod);

        // Actually create an object by requesting the Kubernetes API.
        Pod created = client.pods().resource(pod).create();

        // Update the parent's status.
        return Map.of("children", List.of(created.getMetadata().getUid()));
    }
}
