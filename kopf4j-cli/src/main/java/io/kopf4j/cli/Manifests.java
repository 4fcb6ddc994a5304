package io.kopf4j.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLGenerator;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.kopf4j.internal.engines.permissions.Rule;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The manifests of an operator as YAML documents, each with the kind it holds: the ServiceAccount,
 * the RBAC (a ClusterRole for what is cluster-wide, a Role per namespace for the rest, each bound
 * to the ServiceAccount), the Deployment, the Service of the webhook server, and the CRDs as given. The RBAC is written by hand, not
 * through a YAML library: each rule carries comments saying what needs it, and no YAML library
 * writes comments. The Helm chart ({@link HelmChart}) builds its templates with the same methods,
 * with template expressions ({@link TemplateTokens}) for the namespace, the ServiceAccount and the labels.
 *
 * <pre>{@code
 * Manifests manifests = new Manifests("my-operator", "operators");
 * manifests.serviceAccount();
 * manifests.rbac(rules);
 * manifests.deployment(deploymentSpec);
 * manifests.service(9443);
 * String yaml = manifests.stream();
 * }</pre>
 */
final class Manifests {
    static final YAMLMapper YAML = YAMLMapper.builder(YAMLFactory.builder().stringQuotingChecker(KubectlQuoting.INSTANCE).build()
            .disable(YAMLGenerator.Feature.WRITE_DOC_START_MARKER)
            .enable(YAMLGenerator.Feature.MINIMIZE_QUOTES)).build();

    /** One YAML document and the kind it holds (for the file it goes to with {@code -o DIR}). */
    record Document(String kind, String yaml) {
    }

    private final String name;
    private final String namespace;
    private final String serviceAccount;
    private final Map<String, Object> labels;
    private final List<Document> documents = new ArrayList<>();

    /** The manifests of an operator whose objects, ServiceAccount included, are all named {@code name}, unlabelled. */
    Manifests(String name, String namespace) {
        this(name, namespace, name, Map.of());
    }

    /**
     * @param name the name of the objects and the pods' {@code app} label
     * @param namespace the operator's namespace
     * @param serviceAccount the ServiceAccount's name, which the pods and the bindings name
     * @param labels labels of every object (but the pods), in its metadata; empty for none
     */
    Manifests(String name, String namespace, String serviceAccount, Map<String, Object> labels) {
        this.name = name;
        this.namespace = namespace;
        this.serviceAccount = serviceAccount;
        this.labels = labels;
    }

    List<Document> documents() {
        return List.copyOf(documents);
    }

    /** {@return every document in one multi-document YAML stream} */
    String stream() {
        return String.join("---\n", documents.stream().map(Document::yaml).toList());
    }

    /** The operator's own namespace, so that {@code kubectl apply -k} makes it first. */
    void namespace() {
        Map<String, Object> metadata = new LinkedHashMap<>();
        metadata.put("name", namespace);
        Map<String, Object> object = new LinkedHashMap<>();
        object.put("apiVersion", "v1");
        object.put("kind", "Namespace");
        object.put("metadata", metadata);
        add("Namespace", object);
    }

    void serviceAccount() {
        Map<String, Object> account = object("v1", "ServiceAccount", namespace);
        metadata(account).put("name", serviceAccount);
        add("ServiceAccount", account);
    }

    /** A ClusterRole for the cluster-wide rules, a Role in each namespace for the others, and their bindings. */
    void rbac(List<Rule> rules) {
        Map<String, List<Rule>> byNamespace = new TreeMap<>();
        List<Rule> clusterWide = new ArrayList<>();
        for (Rule rule : rules) {
            if (rule.clusterWide()) {
                clusterWide.add(rule);
            } else {
                byNamespace.computeIfAbsent(rule.namespace(), k -> new ArrayList<>()).add(rule);
            }
        }
        if (!clusterWide.isEmpty()) {
            documents.add(new Document("ClusterRole", header("ClusterRole", null) + "rules:\n" + rules(clusterWide)));
            documents.add(new Document("ClusterRoleBinding", header("ClusterRoleBinding", null) + binding("ClusterRole")));
        }
        byNamespace.forEach((roleNamespace, namespaced) -> {
            documents.add(new Document("Role", header("Role", scalar(roleNamespace)) + "rules:\n" + rules(namespaced)));
            documents.add(new Document("RoleBinding", header("RoleBinding", scalar(roleNamespace)) + binding("Role")));
        });
    }

    void deployment(Map<String, Object> spec) {
        Map<String, Object> deployment = object("apps/v1", "Deployment", namespace);
        deployment.put("spec", spec);
        add("Deployment", deployment);
    }

    /**
     * The Service in front of the webhook server: its port is the server's, the one in the URL
     * that the server publishes in the webhook configurations, to the pods' port named {@code webhook}.
     */
    void service(int port) {
        Map<String, Object> portSpec = new LinkedHashMap<>();
        portSpec.put("name", "webhook");
        portSpec.put("protocol", "TCP");   // a key of the ports' list: server-side apply refuses a port without it
        portSpec.put("port", port);
        portSpec.put("targetPort", "webhook");
        Map<String, Object> spec = new LinkedHashMap<>();
        spec.put("selector", Map.of("app", name));
        spec.put("ports", List.of(portSpec));
        Map<String, Object> service = object("v1", "Service", namespace);
        service.put("spec", spec);
        add("Service", service);
    }

    /**
     * The Service of {@code /metrics}, {@code NAME-metrics}, for a Prometheus ServiceMonitor: its port named
     * {@code https} (secure metrics) or {@code http}, to the pods' port named {@code metrics}.
     *
     * @param port the port, e.g. 8443
     * @param portName {@code https} or {@code http}
     */
    void metricsService(Object port, String portName) {
        Map<String, Object> portSpec = new LinkedHashMap<>();
        portSpec.put("name", portName);
        portSpec.put("protocol", "TCP");
        portSpec.put("port", port);
        portSpec.put("targetPort", "metrics");
        Map<String, Object> spec = new LinkedHashMap<>();
        spec.put("selector", Map.of("app", name));
        spec.put("ports", List.of(portSpec));
        Map<String, Object> service = object("v1", "Service", namespace);
        metadata(service).put("name", name + "-metrics");
        Map<String, Object> serviceLabels = new LinkedHashMap<>(Map.of("app", name));   // a ServiceMonitor's selector
        serviceLabels.putAll(labels);
        metadata(service).put("labels", serviceLabels);
        service.put("spec", spec);
        add("Service", service);
    }

    /**
     * The ClusterRole that lets a scraper read the secure {@code /metrics} ({@code NAME-metrics-reader},
     * kubebuilder's {@code metrics-reader}): bind Prometheus' ServiceAccount to it. Not bound here:
     * who scrapes is the cluster's choice.
     */
    void metricsReader() {
        documents.add(new Document("ClusterRole", "apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRole\n"
                + "metadata:\n  name: " + name + "-metrics-reader\n" + labelLines()
                + "rules:\n# bind a scraper (Prometheus' ServiceAccount) to it: the operator serves /metrics to whom the API server allows it\n"
                + "- nonResourceURLs: [/metrics]\n  verbs: [get]\n"));
    }

    /** A CRD file as given, verbatim (comments and all). */
    void crd(String yaml) {
        documents.add(new Document("CustomResourceDefinition", yaml.replaceFirst("\\A---\\s*\n", "")
                + (yaml.endsWith("\n") ? "" : "\n")));
    }

    /**
     * The start of an RBAC object, to its metadata: {@code kind: Role}, {@code name}, the namespace, the labels.
     *
     * @param roleNamespace the namespace of a Role or RoleBinding; null for a cluster-wide one
     */
    String header(String kind, String roleNamespace) {
        return "apiVersion: rbac.authorization.k8s.io/v1\nkind: " + kind + "\nmetadata:\n  name: " + scalar(name) + "\n"
                + (roleNamespace == null ? "" : "  namespace: " + roleNamespace + "\n") + labelLines();
    }

    /** The rules as the items of a {@code rules:} list, each after its comments. */
    static String rules(List<Rule> rules) {
        StringBuilder text = new StringBuilder();
        for (Rule rule : rules) {
            rule.summary().forEach(reason -> text.append("# ").append(reason.replace("\n", " ")).append('\n'));
            if (rule.optional()) {
                text.append("# (optional: the operator runs without it, warning of what it loses)\n");
            }
            text.append("- apiGroups: [").append(rule.group().isEmpty() ? "\"\"" : rule.group()).append("]\n")
                    .append("  resources: [").append(rule.resource()).append("]\n")
                    .append("  verbs: [").append(String.join(", ", rule.verbs())).append("]\n");
        }
        return text.toString();
    }

    /** The rest of a RoleBinding or ClusterRoleBinding after its {@link #header}: the role, bound to the ServiceAccount. */
    String binding(String roleKind) {
        return "roleRef:\n  apiGroup: rbac.authorization.k8s.io\n  kind: " + roleKind + "\n  name: " + scalar(name) + "\n"
                + "subjects:\n- kind: ServiceAccount\n  name: " + scalar(serviceAccount) + "\n  namespace: " + scalar(namespace) + "\n";
    }

    /** A name in a hand-written document, quoted as Jackson quotes it in the others ({@link KubectlQuoting}). */
    private static String scalar(String value) {
        return KubectlQuoting.INSTANCE.scalar(value);
    }

    /** The labels in a hand-written metadata, as Jackson writes them in the others. */
    private String labelLines() {
        return labels.isEmpty() ? "" : write("labels", Map.of("labels", labels)).replaceAll("(?m)^", "  ");
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> metadata(Map<String, Object> object) {
        return (Map<String, Object>) object.get("metadata");
    }

    private Map<String, Object> object(String apiVersion, String kind, String objectNamespace) {
        Map<String, Object> metadata = new LinkedHashMap<>();
        metadata.put("name", name);
        metadata.put("namespace", objectNamespace);
        if (!labels.isEmpty()) {
            metadata.put("labels", labels);
        }
        Map<String, Object> object = new LinkedHashMap<>();
        object.put("apiVersion", apiVersion);
        object.put("kind", kind);
        object.put("metadata", metadata);
        return object;
    }

    private void add(String kind, Map<String, Object> object) {
        documents.add(new Document(kind, write(kind, object)));
    }

    private static String write(String what, Object value) {
        try {
            return YAML.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write the " + what + " as YAML: " + e.getMessage(), e);
        }
    }
}
