package io.kopf4j.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.kopf4j.OperatorException;
import io.kopf4j.Resource;
import io.kopf4j.envtest.ClusterObjects;
import io.kopf4j.internal.engines.permissions.ApiCatalog;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code kopf4j set-status}: writes fields of an object's status as its controller would, for the
 * controllers that a local cluster lacks (a PersistentVolumeClaim's binding, a Deployment's
 * replicas), as {@code LocalCluster.setStatus} does in tests: a JSON merge patch of the
 * {@code /status} subresource (or of the object, for a resource without one).
 *
 * <pre>
 * kopf4j set-status --local-cluster demo pvc data '{"phase":"Bound"}'
 * </pre>
 */
@Command(name = "set-status", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Merges JSON into an object's status, as its controller would: for the controllers",
                "that a local cluster lacks (no kube-controller-manager, no scheduler, no kubelet)."},
        footer = {"", "RESOURCE is named as with kubectl: plural, singular, kind or short name,",
                "optionally with its group (kopfexamples.kopf.dev). A null value removes a field.",
                "", "Examples:",
                "  kopf4j set-status --local-cluster demo pvc data '{\"phase\":\"Bound\"}'",
                "  kopf4j set-status -n team-a deployments.apps web \\",
                "      '{\"replicas\":3,\"readyReplicas\":3,\"availableReplicas\":3}'",
                "  kopf4j set-status --kubeconfig kubeconfig kex my-example '{\"message\":null}'"})
final class SetStatusCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "RESOURCE", description = "The object's resource, e.g. pvc, deployments.apps.")
    String resource;

    @Parameters(index = "1", paramLabel = "NAME", description = "The object's name.")
    String name;

    @Parameters(index = "2", paramLabel = "JSON", description = "The status fields, a JSON object, e.g. '{\"phase\":\"Bound\"}'.")
    String json;

    @Option(names = {"-n", "--namespace"}, paramLabel = "NAMESPACE",
            description = "The object's namespace. Default: the kubeconfig context's, else default.")
    String namespace;

    @Mixin
    ClusterOptions cluster;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        Map<String, Object> status = statusFields();
        try (KubernetesClient client = cluster.client()) {
            Resource served = ApiCatalog.live(client).resolve(resource);
            String objectNamespace = served.namespaced() ? namespaceOf(client) : null;
            String object = (objectNamespace == null ? "" : objectNamespace + "/") + name;
            try {
                GenericKubernetesResource patched = new ClusterObjects(client).setStatus(served, objectNamespace, name, status);
                spec.commandLine().getOut().println(served.plural() + " " + object + ": status "
                        + client.getKubernetesSerialization().asJson(patched.getAdditionalProperties().get("status")));
                spec.commandLine().getOut().flush();
            } catch (KubernetesClientException e) {
                throw new OperatorException(e.getCode() == 404
                        ? "no " + served + " " + object + " at " + client.getMasterUrl()
                        : "cannot set the status of " + served + " " + object + ": " + e.getMessage(), e);
            }
        }
        return 0;
    }

    private Map<String, Object> statusFields() {
        try {
            Object parsed = new ObjectMapper().readValue(json, Object.class);
            if (parsed instanceof Map<?, ?> map) {
                @SuppressWarnings("unchecked")
                Map<String, Object> fields = (Map<String, Object>) map;
                return fields;
            }
        } catch (JsonProcessingException e) {
            throw new OperatorException("JSON of set-status is not valid JSON: " + e.getOriginalMessage());
        }
        throw new OperatorException("JSON of set-status must be an object of status fields, e.g. '{\"phase\":\"Bound\"}', got " + json);
    }

    private String namespaceOf(KubernetesClient client) {
        if (namespace != null) {
            return namespace;
        }
        String contextNamespace = client.getNamespace();
        return contextNamespace == null ? "default" : contextNamespace;
    }
}
