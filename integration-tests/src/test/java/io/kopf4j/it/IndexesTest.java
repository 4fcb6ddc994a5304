package io.kopf4j.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.kopf4j.Index;
import io.kopf4j.Indexer;
import io.kopf4j.Memo;
import io.kopf4j.On;
import io.kopf4j.Operator;
import io.kopf4j.OperatorSettings;
import io.kopf4j.Spec;
import io.kopf4j.Store;
import io.kopf4j.Timer;
import io.kopf4j.envtest.LocalCluster;
import io.kopf4j.envtest.LocalClusterExtension;
import io.kopf4j.envtest.TemporaryNamespace;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Kopf 1.44's indexes (kopf/_core/engines/indexing.py) on a real API server: an index of pods by
 * label read by a create handler and by a timer while it changes, and the barrier that keeps every
 * resource handler waiting until the indexes are complete, also with one worker place.
 */
@ExtendWith(LocalClusterExtension.class)
class IndexesTest {
    private static final Logger LOG = LoggerFactory.getLogger(IndexesTest.class);
    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final int MANY = 2000;

    /** Pods by their app label; the create handler takes the pods of its example's app. */
    public static class PodsByApp {
        static final Map<String, List<String>> SEEN = new ConcurrentHashMap<>();
        static final Map<String, Integer> TIMER = new ConcurrentHashMap<>();

        @Indexer(value = "pods", labels = "app")
        public Map<String, String> podsByApp(Map<String, String> labels, String name) {
            return Map.of(labels.get("app"), name);
        }

        @On.Create("kopfexamples")
        public void create(Index<String, String> podsByApp, Spec spec, String name) {
            Store<String> pods = podsByApp.get((String) spec.get("app"));
            SEEN.put(name, pods.values().stream().sorted().toList());
        }

        @Timer(value = "kopfexamples", interval = 0.2)
        public void count(Index<String, String> podsByApp, Spec spec, String name) {
            TIMER.put(name, podsByApp.get((String) spec.get("app")).size());
        }
    }

    private static void pod(KubernetesClient client, String namespace, String name, String app) {
        client.pods().inNamespace(namespace).resource(new PodBuilder().withNewMetadata().withName(name)
                .addToLabels("app", app).endMetadata().withNewSpec().addNewContainer().withName("main")
                .withImage("busybox").endContainer().endSpec().build()).create();
    }

    @Test
    void aCreateHandlerAndATimerReadAnIndexOfPodsByLabelAsItChanges(LocalCluster cluster, TemporaryNamespace namespace)
            throws Exception {
        PodsByApp.SEEN.clear();
        PodsByApp.TIMER.clear();
        OperatorFixture fixture = new OperatorFixture(cluster, namespace);
        KubernetesClient client = cluster.client();
        pod(client, namespace.name(), "web-1", "web");
        pod(client, namespace.name(), "web-2", "web");
        pod(client, namespace.name(), "db-1", "db");
        try (Operator operator = fixture.start(fixture.operator().healthProbeAddress("127.0.0.1:0")
                .handlers(new PodsByApp()))) {
            fixture.examples().create("ex", Map.of("app", "web"));
            await().atMost(WAIT).until(() -> PodsByApp.SEEN.containsKey("ex"));
            assertThat(PodsByApp.SEEN.get("ex")).containsExactly("web-1", "web-2");
            HttpResponse<String> ready;
            try (HttpClient http = HttpClient.newHttpClient()) {
                ready = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:"
                        + operator.healthProbeAddress().getPort() + "/readyz?verbose")).build(),
                        HttpResponse.BodyHandlers.ofString());
            }
            assertThat(ready.statusCode()).isEqualTo(200);
            assertThat(ready.body()).contains("[+]indexes-ready ok");

            await().atMost(WAIT).until(() -> Integer.valueOf(2).equals(PodsByApp.TIMER.get("ex")));
            pod(client, namespace.name(), "web-3", "web");
            await().atMost(WAIT).until(() -> Integer.valueOf(3).equals(PodsByApp.TIMER.get("ex")));
            client.pods().inNamespace(namespace.name()).withName("web-1").withGracePeriod(0).delete();
            client.pods().inNamespace(namespace.name()).withName("web-2").edit(pod -> {
                pod.getMetadata().getLabels().put("app", "db");
                return pod;
            });
            await().atMost(WAIT).until(() -> Integer.valueOf(1).equals(PodsByApp.TIMER.get("ex")));
        }
    }

    /** An index over many ConfigMaps; resource handlers of both resources record how complete it was when they ran. */
    public static class ManyConfigMaps {
        static final Map<String, Integer> SIZES = new ConcurrentHashMap<>();

        @Indexer("configmaps")
        public Object configMapsByName(String name) {
            return Map.of(name, name);
        }

        @On.Event("configmaps")
        public void event(Index<String, String> configMapsByName) {
            SIZES.merge("configmaps", configMapsByName.size(), Math::min);
        }

        @On.Create("kopfexamples")
        public void create(Index<String, String> configMapsByName, String name) {
            SIZES.merge(name, configMapsByName.size(), Math::min);
        }
    }

    @Test
    void anIndexOfManyObjectsIsCompleteBeforeTheFirstHandlerAlsoWithOneWorkerPlace(LocalCluster cluster,
                                                                                   TemporaryNamespace namespace)
            throws Exception {
        OperatorFixture fixture = new OperatorFixture(cluster, namespace);
        KubernetesClient client = cluster.client();
        long started = System.nanoTime();
        ExecutorService creators = Executors.newFixedThreadPool(8);
        try {
            List<Future<?>> created = IntStream.range(0, MANY).mapToObj(i -> creators.submit(() ->
                    client.configMaps().inNamespace(namespace.name()).resource(new ConfigMapBuilder()
                            .withNewMetadata().withName("cm-" + i).endMetadata().addToData("i", "" + i).build())
                            .create())).<Future<?>>map(f -> f).toList();
            for (Future<?> future : created) {
                future.get();
            }
        } finally {
            creators.shutdown();
        }
        LOG.info("Created {} ConfigMaps in {} s", MANY, Duration.ofNanos(System.nanoTime() - started).toSeconds());
        // The namespace's own root CA ConfigMap, if the API server makes one, is indexed too.
        int expected = client.configMaps().inNamespace(namespace.name()).list().getItems().size();
        assertThat(expected).isGreaterThanOrEqualTo(MANY);

        for (Integer workerLimit : new Integer[] {null, 1}) {
            ManyConfigMaps.SIZES.clear();
            String example = workerLimit == null ? "ex-unlimited" : "ex-limited";
            fixture.examples().create(example, Map.of("a", 1));
            OperatorSettings settings = new OperatorSettings();
            settings.queueing.workerLimit = workerLimit;
            try (Operator operator = fixture.start(fixture.operator().settings(settings).handlers(new ManyConfigMaps()))) {
                await().atMost(WAIT).until(() -> ManyConfigMaps.SIZES.containsKey(example)
                        && ManyConfigMaps.SIZES.containsKey("configmaps"));
                assertThat(ManyConfigMaps.SIZES).as("workerLimit %s", workerLimit)
                        .containsEntry(example, expected).containsEntry("configmaps", expected);
            }
        }
    }

    /** An indexing function counts its calls in its memo; the create handler stores what its memo holds. */
    public static class MemoCounting {
        @Indexer("kopfexamples")
        public String byName(Memo memo, String name) {
            memo.merge("indexed", 1, (a, b) -> (Integer) a + (Integer) b);
            return name;
        }

        @On.Create("kopfexamples")
        public Map<String, Object> create(Memo memo) {
            return Map.of("indexed", memo.get("indexed"));
        }
    }

    @Test
    void indexingFunctionsShareTheObjectsMemoWithItsHandlers(LocalCluster cluster, TemporaryNamespace namespace)
            throws Exception {
        OperatorFixture fixture = new OperatorFixture(cluster, namespace);
        try (Operator operator = fixture.start(fixture.operator().handlers(new MemoCounting()))) {
            fixture.examples().create("first", Map.of());
            await().atMost(WAIT).until(() -> fixture.examples().status("first").containsKey("create"));
            fixture.examples().create("second", Map.of());
            await().atMost(WAIT).until(() -> fixture.examples().status("second").containsKey("create"));
            // The operator's memo would have counted the first object's indexing too (2 or more).
            assertThat(fixture.examples().status("second")).containsEntry("create", Map.of("indexed", 1));
            assertThat(fixture.examples().status("first").get("create")).isEqualTo(Map.of("indexed", 1));
        }
    }

    /** A cluster-wide index of labelled ConfigMaps by namespace; an event handler records what it holds. */
    public static class ClusterWide {
        static final Map<String, List<String>> SEEN = new ConcurrentHashMap<>();

        @Indexer(value = "configmaps", labels = "kopf4j-test=cluster-wide-index")
        public Map<String, String> byNamespace(String namespace, String name) {
            return Map.of(namespace, name);
        }

        @On.Event(value = "configmaps", labels = "kopf4j-test=cluster-wide-index")
        public void seen(Index<String, String> byNamespace) {
            Map<String, List<String>> now = new HashMap<>();
            byNamespace.keys().forEach(namespace -> now.put(namespace,
                    byNamespace.get(namespace).values().stream().sorted().toList()));
            SEEN.clear();
            SEEN.putAll(now);
        }
    }

    private static void labelledConfigMap(KubernetesClient client, String namespace, String name) {
        client.configMaps().inNamespace(namespace).resource(new ConfigMapBuilder().withNewMetadata().withName(name)
                .addToLabels("kopf4j-test", "cluster-wide-index").endMetadata().build()).create();
    }

    @Test
    void aClusterWideIndexHoldsTheObjectsOfEveryNamespace(LocalCluster cluster, TemporaryNamespace first,
                                                          TemporaryNamespace second) throws Exception {
        ClusterWide.SEEN.clear();
        KubernetesClient client = cluster.client();
        labelledConfigMap(client, first.name(), "a");
        try (Operator operator = Operator.builder().kubeconfig(cluster.kubeconfig()).handlers(new ClusterWide()).build()) {
            operator.start();
            labelledConfigMap(client, second.name(), "b");
            labelledConfigMap(client, second.name(), "c");
            await().atMost(WAIT).until(() -> ClusterWide.SEEN.equals(Map.of(first.name(), List.of("a"),
                    second.name(), List.of("b", "c"))));
            client.configMaps().inNamespace(second.name()).withName("b").delete();
            await().atMost(WAIT).until(() -> ClusterWide.SEEN.equals(Map.of(first.name(), List.of("a"),
                    second.name(), List.of("c"))));
        }
    }
}
