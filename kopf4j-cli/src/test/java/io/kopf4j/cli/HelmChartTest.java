package io.kopf4j.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import com.marcnuri.helm.Helm;
import com.marcnuri.helm.LintResult;
import io.kopf4j.On;
import io.kopf4j.OperatorSettings;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code kopf4j manifests --helm}: the chart, linted and rendered by Helm's own code (helm-java, as
 * {@code helm lint} and {@code helm template}), is the manifests: rendered with the values of some
 * options, it holds the objects, the RBAC above all, that {@code kopf4j manifests} writes with those
 * options. So a value that changes the RBAC (the namespaces, leader election, secure metrics) changes it
 * as the options would.
 */
class HelmChartTest {
    private static final String CRD = Path.of("../examples/crd.yaml").toString();
    private static final YAMLMapper YAML = new YAMLMapper();
    /** The labels that the chart adds to every object, as Helm charts do; the manifests have none of them. */
    private static final List<String> CHART_LABELS = List.of("helm.sh/chart", "app.kubernetes.io/name",
            "app.kubernetes.io/instance", "app.kubernetes.io/version", "app.kubernetes.io/managed-by");

    @TempDir
    Path dir;

    /** The chart of the handlers, with the options of the values' defaults, in dir/chart. */
    private Path chart(Class<?> handlers, String... options) {
        Path chart = dir.resolve("chart");
        List<String> args = new ArrayList<>(List.of("manifests", "--crd", CRD, "--name", "op", "--image", "example.com/op:1.0",
                "--helm", chart.toString()));
        args.addAll(List.of(options));
        args.add(handlers.getName());
        Main.Captured result = Main.capture(args.toArray(String[]::new));
        assertThat(result.code()).as(result.err()).isZero();
        assertThat(result.out()).contains("Wrote the chart op to " + chart, "helm lint " + chart);
        return chart;
    }

    /** The chart rendered as helm template does, in the release namespace {@code ops}, with these values. */
    private String render(Path chart, String values) throws Exception {
        return new Helm(chart).template().withName("op").withNamespace("ops")
                .withValuesFile(Files.writeString(dir.resolve("values-" + values.hashCode() + ".yaml"), values)).call();
    }

    @Test
    void theChartLintsCleanlyInStrictMode() {
        LintResult lint = new Helm(chart(ManifestsCommandTest.Admission.class, "-n", "team-a", "--leader-election")).lint()
                .strict().call();
        assertThat(lint.isFailed()).as(String.join("\n", lint.getMessages())).isFalse();
        assertThat(lint.getMessages()).containsExactly("[INFO] Chart.yaml: icon is recommended");
    }

    static Stream<Arguments> valuesAndTheirOptions() {
        return Stream.of(
                Arguments.of("the defaults: the options of the chart", "{}", List.of("-n", "team-a")),
                Arguments.of("two names: a Role in each", "namespaces: [team-a, team-b]", List.of("-n", "team-a", "-n", "team-b")),
                Arguments.of("no namespaces: all of them, cluster-wide", "namespaces: []", List.of()),
                Arguments.of("patterns: cluster-wide, and the namespaces watched", "namespaces: ['team-*', '!team-x']",
                        List.of("-n", "team-*", "-n", "!team-x")),
                Arguments.of("leader election: the Lease in the release's namespace, rolling updates",
                        "leaderElection: {enabled: true}\nreplicas: 2", List.of("-n", "team-a", "--leader-election",
                                "--replicas", "2")),
                Arguments.of("the release's namespace served: its Role holds the Lease too",
                        "namespaces: [ops]\nleaderElection: {enabled: true}", List.of("-n", "ops", "--leader-election")),
                Arguments.of("metrics in plain HTTP: no reviews, no reader role", "metrics: {port: 8080, secure: false}",
                        List.of("-n", "team-a", "--no-metrics-secure")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("valuesAndTheirOptions")
    void theChartRenderedWithValuesIsTheManifestsWithTheirOptions(String what, String values, List<String> options)
            throws Exception {
        Path chart = chart(ManifestsCommandTest.Children.class, "-n", "team-a");
        List<String> args = new ArrayList<>(List.of("manifests", "--crd", CRD, "--name", "op", "--image", "example.com/op:1.0",
                "--operator-namespace", "ops"));
        args.addAll(options);
        args.add(ManifestsCommandTest.Children.class.getName());
        Main.Captured manifests = Main.capture(args.toArray(String[]::new));
        assertThat(manifests.code()).as(manifests.err()).isZero();

        String rendered = render(chart, values);

        assertThat(objects(rendered)).as(rendered).isEqualTo(objects(manifests.out()));
        assertThat(rendered).doesNotContain("kopf4j-chart-");   // no stand-in namespace of the derivation is left
    }

    /** A startup handler that turns secure metrics off, whatever the options or the values say. */
    public static class PlainMetrics {
        @On.Startup
        public void configure(OperatorSettings settings) {
            settings.metrics.secure = false;
        }

        @On.Create("kopfexamples")
        public void create() {
        }
    }

    @Test
    void aFeatureTheStartupHandlersTurnOffStaysOffWhateverTheValues() throws Exception {
        String rendered = render(chart(PlainMetrics.class, "-n", "team-a"), "metrics: {secure: true}");
        assertThat(rendered).contains("- --no-metrics-secure\n").doesNotContain("metrics-reader", "tokenreviews");
    }

    @Test
    void namespacesThatYamlWouldReadAsOtherTypesStayNames() throws Exception {
        String rendered = render(chart(ManifestsCommandTest.Children.class, "-n", "team-a"), "namespaces: ['123', 'null']");
        List<Object> roleNamespaces = new ArrayList<>();
        try (MappingIterator<Map<String, Object>> documents = YAML.readerFor(Map.class).readValues(rendered)) {
            while (documents.hasNext()) {
                Map<String, Object> document = documents.next();
                if (document != null && "Role".equals(document.get("kind"))) {
                    roleNamespaces.add(((Map<?, ?>) document.get("metadata")).get("namespace"));
                }
            }
        }
        assertThat(roleNamespaces).containsExactlyInAnyOrder("123", "null");
    }

    @Test
    void aRuleKeepsItsCommentsAndThePatternsOfItsReasonAreTheValues() throws Exception {
        String rendered = render(chart(ManifestsCommandTest.Children.class, "-n", "team-a"), "namespaces: ['team-*']");
        assertThat(rendered).contains("# @Permission on Children: what its handlers do themselves\n- apiGroups: [\"\"]\n"
                + "  resources: [pods]\n  verbs: [create]\n")
                .contains("# namespace patterns [team-*]: the namespaces that match, as they come and go");
    }

    @Test
    void aValueOfTheWrongTypeIsOneErrorNamingIt() {
        Path chart = chart(ManifestsCommandTest.Children.class);
        assertThatThrownBy(() -> render(chart, "namespaces: team-a")).hasMessageContaining("namespaces")
                .hasMessageContaining("array");
        assertThatThrownBy(() -> render(chart, "image: {tag: 1.0}")).hasMessageContaining("image.tag")
                .hasMessageContaining("string");
    }

    @Test
    void aWebhookServerAtItsServicesNameHoldsTheReleaseToItsNamespace() throws Exception {
        Path chart = chart(ManifestsCommandTest.Admission.class);   // host("op.ops.svc")
        assertThat(render(chart, "{}")).contains("kind: Service\nmetadata:\n  name: op\n  namespace: \"ops\"\n");
        assertThatThrownBy(() -> new Helm(chart).template().withName("op").withNamespace("elsewhere").call())
                .hasMessageContaining("the webhook server of op is at op.ops.svc (the host of settings.admission.server):"
                        + " install the chart into the namespace ops (--namespace ops)");
    }

    @Test
    void anotherGenerationDeletesTheGeneratedTemplatesItNoLongerWritesAndKeepsTheUsersOwn() throws Exception {
        Path chart = chart(ManifestsCommandTest.Admission.class);
        Path webhookService = chart.resolve("templates/webhook-service.yaml");
        assertThat(webhookService).exists();
        Path own = Files.writeString(chart.resolve("templates/own.yaml"), "apiVersion: v1\nkind: ConfigMap\n");

        chart(ManifestsCommandTest.Children.class);

        assertThat(webhookService).doesNotExist();
        assertThat(own).exists();
    }

    @Test
    void withoutAServerThePodIsToldTheServiceHostInTheReleasesNamespace() throws Exception {
        String rendered = render(chart(ManifestsCommandTest.AdmissionWithoutAServer.class, "--standalone"), "{}");
        assertThat(rendered).contains("kind: Service\nmetadata:\n  name: op\n", "containerPort: 9443")
                .contains("- name: KOPF4J_WEBHOOK_HOST\n            value: \"op.ops.svc\"");
    }

    @Test
    void anOutputDirectoryAndAChartExcludeEachOther() {
        Main.Captured result = Main.capture("manifests", "--crd", CRD, "-o", dir.resolve("out").toString(), "--helm",
                dir.resolve("chart").toString(), ManifestsCommandTest.Children.class.getName());
        assertThat(result.code()).isEqualTo(1);
        assertThat(result.err()).contains(
                "kopf4j: error: -o/--output-dir and --helm exclude each other: one writes the manifests, the other a chart");
    }

    /**
     * The objects of a YAML stream that both write, comparable: without the chart's labels, the rules of
     * a role and the operator's args in one order, and the Deployment's strategy and pull policy as
     * Kubernetes defaults them.
     */
    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> objects(String stream) throws Exception {
        List<Map<String, Object>> objects = new ArrayList<>();
        try (MappingIterator<Object> documents = YAML.readerFor(Object.class).readValues(stream)) {
            while (documents.hasNext()) {
                if (!(documents.next() instanceof Map<?, ?> document)
                        || List.of("Namespace", "CustomResourceDefinition").contains(document.get("kind"))) {
                    continue;   // an empty document; what the chart leaves to Helm (the namespace, crds/)
                }
                Map<String, Object> object = new LinkedHashMap<>((Map<String, Object>) document);
                Map<String, Object> metadata = new LinkedHashMap<>((Map<String, Object>) object.get("metadata"));
                if (metadata.get("labels") instanceof Map<?, ?> labels) {
                    Map<String, Object> kept = new LinkedHashMap<>((Map<String, Object>) labels);
                    CHART_LABELS.forEach(kept::remove);
                    metadata.remove("labels");
                    if (!kept.isEmpty()) {
                        metadata.put("labels", kept);
                    }
                }
                object.put("metadata", metadata);
                if (object.get("rules") instanceof List<?> rules) {
                    object.put("rules", rules.stream().sorted(Comparator.comparing(Object::toString)).toList());
                }
                if ("Deployment".equals(object.get("kind"))) {
                    Map<String, Object> spec = new LinkedHashMap<>((Map<String, Object>) object.get("spec"));
                    spec.putIfAbsent("strategy", Map.of("type", "RollingUpdate"));
                    Map<String, Object> pod = (Map<String, Object>) ((Map<String, Object>) spec.get("template")).get("spec");
                    Map<String, Object> container = ((List<Map<String, Object>>) pod.get("containers")).getFirst();
                    container.remove("imagePullPolicy");
                    container.put("args", ((List<String>) container.get("args")).stream().sorted().toList());
                    object.put("spec", spec);
                }
                objects.add(object);
            }
        }
        objects.sort(Comparator.comparing(object -> object.get("kind") + " " + object.get("metadata")));
        return objects;
    }
}
