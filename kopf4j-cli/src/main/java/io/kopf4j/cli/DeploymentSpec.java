package io.kopf4j.cli;

import io.kopf4j.OperatorSettings;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The spec of the operator's Deployment: its container running {@code run} with the operator's args,
 * the probes, the ports, the resources and the security context, as docs/operations.md has them. The
 * same for {@code kopf4j manifests} (literal values) and for its Helm chart (template expressions
 * from {@link TemplateTokens}, where the chart's values decide).
 *
 * <pre>{@code
 * Map<String, Object> spec = DeploymentSpec.of("my-operator", new DeploymentSpec.Parts("my-operator:1.0", null, 1,
 *         List.of("run", "-A", "Handlers"), null, 8081, 8443, null, DeploymentSpec.RESOURCES, "Recreate", "my-operator"));
 * }</pre>
 */
final class DeploymentSpec {
    /** The container's resources: the manifests' and the chart's default. */
    static final Map<String, Object> RESOURCES = ordered("requests", ordered("cpu", "100m", "memory", "256Mi"),
            "limits", ordered("memory", "512Mi"));

    /**
     * What the manifests and the chart set differently: values, or template expressions.
     *
     * @param image the container's image
     * @param imagePullPolicy the image's pull policy, or null for Kubernetes' default
     * @param replicas the Deployment's replicas
     * @param args the container's args: {@code run}, its options, the handler classes
     * @param env the container's environment, or null for none
     * @param probesPort the port of {@code /healthz} and {@code /readyz}
     * @param metricsPort the port of {@code /metrics}
     * @param webhookPort the webhook server's port, or null if it has no Service
     * @param resources the container's resources
     * @param strategyType the Deployment's strategy ({@code Recreate}), or null for Kubernetes' rolling update
     * @param serviceAccount the pods' ServiceAccount
     */
    record Parts(Object image, Object imagePullPolicy, Object replicas, Object args, Object env, int probesPort,
                 Object metricsPort, Integer webhookPort, Object resources, Object strategyType, Object serviceAccount) {
    }

    private DeploymentSpec() {
    }

    /**
     * @param app the pods' {@code app} label, which the Deployment and the Services select
     * @param parts the container's image, args and the rest
     * @return the Deployment's spec
     */
    static Map<String, Object> of(String app, Parts parts) {
        Map<String, Object> container = new LinkedHashMap<>();
        container.put("name", "operator");
        container.put("image", parts.image());
        if (parts.imagePullPolicy() != null) {
            container.put("imagePullPolicy", parts.imagePullPolicy());
        }
        container.put("args", parts.args());
        if (parts.env() != null) {
            container.put("env", parts.env());
        }
        List<Map<String, Object>> ports = new ArrayList<>(List.of(
                ordered("name", "probes", "containerPort", parts.probesPort()),
                ordered("name", "metrics", "containerPort", parts.metricsPort())));
        if (parts.webhookPort() != null) {
            ports.add(ordered("name", "webhook", "containerPort", parts.webhookPort()));   // the Service's target
        }
        container.put("ports", ports);
        container.put("livenessProbe", probe("/healthz", 15, 20));
        container.put("readinessProbe", probe("/readyz", 5, 10));
        container.put("resources", parts.resources());
        // Pod Security "restricted" (ManifestsCommandTest checks every rule), and a read-only root: the JVM
        // needs nothing written but its temporary files (java.io.tmpdir, the perf data), kept in /tmp.
        container.put("securityContext", ordered("allowPrivilegeEscalation", false, "readOnlyRootFilesystem", true,
                "capabilities", ordered("drop", List.of("ALL"))));
        container.put("volumeMounts", List.of(ordered("name", "tmp", "mountPath", "/tmp")));

        Map<String, Object> pod = new LinkedHashMap<>();
        pod.put("serviceAccountName", parts.serviceAccount());
        pod.put("terminationGracePeriodSeconds", 60);
        pod.put("securityContext", ordered("runAsNonRoot", true, "seccompProfile", ordered("type", "RuntimeDefault")));
        pod.put("containers", List.of(container));
        pod.put("volumes", List.of(ordered("name", "tmp", "emptyDir", ordered("sizeLimit", "64Mi"))));

        Map<String, Object> spec = new LinkedHashMap<>();
        spec.put("replicas", parts.replicas());
        if (parts.strategyType() != null) {
            spec.put("strategy", ordered("type", parts.strategyType()));
        }
        spec.put("selector", ordered("matchLabels", ordered("app", app)));
        spec.put("template", ordered("metadata", ordered("labels", ordered("app", app)), "spec", pod));
        return spec;
    }

    /**
     * {@return whether a single replica is replaced by stopping it first ({@code Recreate}): without
     * leader election or sharding, two replicas would handle the same objects during a rolling update}
     *
     * @param settings the operator's settings
     */
    static boolean oneAtATime(OperatorSettings settings) {
        return !settings.leadership.enabled && settings.sharding.shards == null;
    }

    /** The pod's name and namespace from the downward API, for the features that name the replicas. */
    static List<Map<String, Object>> environment(OperatorSettings settings) {
        List<Map<String, Object>> env = new ArrayList<>();
        if (!settings.peering.standalone) {
            env.add(fieldRef("POD_ID", "metadata.name"));   // Kopf's peering names its record after the pod
        }
        if (settings.leadership.enabled || settings.sharding.shards != null) {
            env.add(fieldRef("POD_NAMESPACE", "metadata.namespace"));   // where the Leases are
        }
        return env;
    }

    private static Map<String, Object> fieldRef(String variable, String field) {
        return ordered("name", variable, "valueFrom", ordered("fieldRef", ordered("fieldPath", field)));
    }

    private static Map<String, Object> probe(String path, int initialDelay, int period) {
        Map<String, Object> probe = new LinkedHashMap<>();
        probe.put("httpGet", ordered("path", path, "port", "probes"));
        probe.put("initialDelaySeconds", initialDelay);
        probe.put("periodSeconds", period);
        probe.put("timeoutSeconds", 3);
        probe.put("failureThreshold", 3);
        return probe;
    }

    /** A map that keeps its keys in the order given, so that the YAML reads as docs/operations.md writes it. */
    static Map<String, Object> ordered(Object... keysAndValues) {
        Map<String, Object> map = new LinkedHashMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            map.put((String) keysAndValues[i], keysAndValues[i + 1]);
        }
        return map;
    }
}
