package io.kopf4j.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.kopf4j.Handler;
import io.kopf4j.On;
import io.kopf4j.Operator;
import io.kopf4j.OperatorSettings;
import io.kopf4j.storage.StatusDiffBaseStorage;
import io.kopf4j.storage.StatusProgressStorage;
import io.kopf4j.testing.KopfRunner;
import io.kopf4j.testing.LocalCluster;
import io.kopf4j.testing.LocalClusterExtension;
import io.kopf4j.testing.TemporaryNamespace;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** Other storages, dropped status fields, and ambiguous selectors. */
@ExtendWith(LocalClusterExtension.class)
class StoragesTest {
    private static final Duration WAIT = Duration.ofSeconds(30);

    @TempDir
    Path dir;

    @Test
    void stateCanBeKeptInStatusInstead(LocalCluster cluster, TemporaryNamespace namespace) throws Exception {
        KopfExamples examples = new KopfExamples(cluster, namespace.name());
        OperatorSettings settings = new OperatorSettings();
        settings.persistence.progressStorage = new StatusProgressStorage();
        settings.persistence.diffbaseStorage = new StatusDiffBaseStorage();
        try (Operator operator = Operator.builder()
                .handler(Handler.create("kopfexamples").id("create").handle(context -> "created"))
                .namespaces(namespace.name()).kubeconfig(cluster.kubeconfig()).settings(settings).build()) {
            operator.start();
            examples.create("ex", Map.of("a", 1));
            await().atMost(WAIT).untilAsserted(() -> assertThat(examples.status("ex"))
                    .containsEntry("create", "created")
                    .containsEntry("kopf", Map.of("last-handled-configuration", "{\"spec\":{\"a\":1}}")));
            assertThat(examples.annotations("ex").keySet()).noneMatch(key -> key.startsWith("kopf.zalando.org/"));
        }
    }

    @Test
    void statusDroppedByAStrictSchemaIsReported(LocalCluster cluster, TemporaryNamespace namespace) throws Exception {
        cluster.apply(Files.writeString(dir.resolve("strict.yaml"), """
                apiVersion: apiextensions.k8s.io/v1
                kind: CustomResourceDefinition
                metadata:
                  name: strictthings.strict.example.com
                spec:
                  group: strict.example.com
                  scope: Namespaced
                  names: {plural: strictthings, singular: strictthing, kind: StrictThing}
                  versions:
                  - name: v1
                    served: true
                    storage: true
                    subresources: {status: {}}
                    schema:
                      openAPIV3Schema:
                        type: object
                        properties:
                          spec: {type: object, x-kubernetes-preserve-unknown-fields: true}
                          status: {type: object, properties: {phase: {type: string}}}
                """));
        try (CapturedLogs lines = new CapturedLogs("kopf.objects");
             Operator operator = Operator.builder()
                     .handler(Handler.create("strictthings.strict.example.com").id("create").handle(context -> "pruned"))
                     .namespaces(namespace.name()).kubeconfig(cluster.kubeconfig()).build()) {
            operator.start();
            cluster.client().genericKubernetesResources("strict.example.com/v1", "StrictThing").inNamespace(namespace.name())
                    .resource(new GenericKubernetesResourceBuilder().withApiVersion("strict.example.com/v1")
                            .withKind("StrictThing").withNewMetadata().withName("s1").endMetadata()
                            .addToAdditionalProperties("spec", Map.of("a", 1)).build()).create();
            await().atMost(WAIT).until(() -> lines.contains("Merge-patching finished with inconsistencies: {\"status.create\":\"pruned\"}"));
        }
    }

    public static class Ambiguous {
        @On.Create("dupthings")
        public void create() {
        }

        @On.Create("kopfexamples")
        public String served() {
            return "served";
        }
    }

    @Test
    void ambiguousNamesAreWarnedAboutAndNotServed(LocalCluster cluster, TemporaryNamespace namespace) throws Exception {
        for (String group : new String[]{"one.example.com", "two.example.com"}) {
            cluster.apply(Files.writeString(dir.resolve(group + ".yaml"), """
                    apiVersion: apiextensions.k8s.io/v1
                    kind: CustomResourceDefinition
                    metadata: {name: dupthings.%s}
                    spec:
                      group: %s
                      scope: Namespaced
                      names: {plural: dupthings, singular: dupthing, kind: DupThing}
                      versions:
                      - {name: v1, served: true, storage: true, schema: {openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}}}
                    """.formatted(group, group)));
        }
        KopfExamples examples = new KopfExamples(cluster, namespace.name());
        try (KopfRunner runner = KopfRunner.start(cluster.kubeconfig(), "run", "-n", namespace.name(), Ambiguous.class.getName())) {
            assertThat(runner.output()).contains("Ambiguous resource 'dupthings' is not served: it matches [");
            examples.create("ex", Map.of("a", 1));
            await().atMost(WAIT).untilAsserted(() -> assertThat(examples.status("ex")).containsEntry("served", "served"));
        }
    }
}
