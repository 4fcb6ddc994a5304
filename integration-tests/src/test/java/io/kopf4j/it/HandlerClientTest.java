package io.kopf4j.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.kopf4j.Activity;
import io.kopf4j.Body;
import io.kopf4j.Handler;
import io.kopf4j.HandlerContext;
import io.kopf4j.On;
import io.kopf4j.Operator;
import io.kopf4j.envtest.LocalCluster;
import io.kopf4j.envtest.LocalClusterExtension;
import io.kopf4j.envtest.TemporaryNamespace;
import io.kopf4j.testing.KopfRunner;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Handlers create children with the operator's own client (a parameter or {@code context.client()}),
 * through re-logins; and under KopfRunner a client that a handler builds itself reaches the cluster too.
 */
@ExtendWith(LocalClusterExtension.class)
class HandlerClientTest {
    private static final Duration WAIT = Duration.ofSeconds(30);

    /** A ConfigMap named after its parent, which owns it: deleted with it by the garbage collector. */
    static ConfigMap child(Body parent) {
        OwnerReference owner = new OwnerReferenceBuilder().withApiVersion(parent.apiVersion()).withKind(parent.kind())
                .withName(parent.meta().name()).withUid(parent.meta().uid())
                .withController(true).withBlockOwnerDeletion(true).build();
        return new ConfigMapBuilder().withNewMetadata().withName(parent.meta().name() + "-child")
                .withNamespace(parent.meta().namespace()).withOwnerReferences(owner).endMetadata()
                .withData(Map.of("size", String.valueOf(parent.spec().get("size")))).build();
    }

    /** The children example: the client as a parameter. */
    public static class Children {
        @On.Create("kopfexamples")
        public String create(Body body, KubernetesClient client) {
            client.configMaps().inNamespace(body.meta().namespace()).resource(child(body)).create();
            return "created";
        }
    }

    /** A client of the handler's own, with fabric8's default configuration: no kubeconfig given. */
    public static class OwnClient {
        @On.Create("kopfexamples")
        public void create(Body body) {
            try (KubernetesClient own = new KubernetesClientBuilder().build()) {
                own.configMaps().inNamespace(body.meta().namespace()).resource(child(body)).create();
            }
        }
    }

    private static ConfigMap awaitChild(LocalCluster cluster, String namespace, String parent) {
        return await().atMost(WAIT).until(
                () -> cluster.client().configMaps().inNamespace(namespace).withName(parent + "-child").get(),
                configMap -> configMap != null);
    }

    @Test
    void aCreateHandlerCreatesAnOwnedChildWithTheClientParameter(LocalCluster cluster, TemporaryNamespace namespace) {
        OperatorFixture fixture = new OperatorFixture(cluster, namespace);
        try (KopfRunner runner = fixture.run(Children.class)) {
            String uid = fixture.examples().create("ex", Map.of("size", 3)).getMetadata().getUid();

            ConfigMap child = awaitChild(cluster, namespace.name(), "ex");
            assertThat(child.getData()).containsEntry("size", "3");
            assertThat(child.getMetadata().getOwnerReferences()).singleElement().satisfies(owner -> {
                assertThat(owner.getUid()).isEqualTo(uid);
                assertThat(owner.getKind()).isEqualTo("KopfExample");
                assertThat(owner.getController()).isTrue();
            });
            await().atMost(WAIT).untilAsserted(() ->
                    assertThat(fixture.examples().status("ex")).containsEntry("create", "created"));
        }
    }

    @Test
    void contextClientServesLambdaHandlers(LocalCluster cluster, TemporaryNamespace namespace) throws Exception {
        OperatorFixture fixture = new OperatorFixture(cluster, namespace);
        try (Operator operator = fixture.start(fixture.operator().handler(Handler.create("kopfexamples").id("create")
                .handle((HandlerContext context) -> {
                    return context.client().configMaps().inNamespace(context.namespace())
                            .resource(child(context.body())).create().getMetadata().getName();
                })))) {
            fixture.examples().create("ex", Map.of("size", 1));

            assertThat(awaitChild(cluster, namespace.name(), "ex").getData()).containsEntry("size", "1");
            await().atMost(WAIT).untilAsserted(() ->
                    assertThat(fixture.examples().status("ex")).containsEntry("create", "ex-child"));
        }
    }

    @Test
    void theHandlersClientFollowsTheOperatorThroughARelogin(LocalCluster cluster, TemporaryNamespace namespace)
            throws Exception {
        OperatorFixture fixture = new OperatorFixture(cluster, namespace);
        String first = LoginTest.token(cluster, namespace.name(), "first");
        AtomicReference<String> token = new AtomicReference<>(first);
        AtomicInteger logins = new AtomicInteger();
        Operator.Builder builder = Operator.builder().namespaces(namespace.name())
                .handler(Handler.create("kopfexamples").id("create").handle((HandlerContext context) ->
                        context.client().configMaps().inNamespace(context.namespace()).resource(child(context.body()))
                                .create().getMetadata().getName()))
                .activity(Activity.login("token").handle(context -> {
                    logins.incrementAndGet();
                    return LoginTest.withToken(cluster, token.get());
                }));
        try (Operator operator = fixture.start(builder)) {
            fixture.examples().create("before", Map.of("size", 1));
            awaitChild(cluster, namespace.name(), "before");

            token.set(LoginTest.token(cluster, namespace.name(), "second"));
            LoginTest.revoke(cluster, namespace.name(), "first", first);
            fixture.examples().create("after", Map.of("size", 2));

            assertThat(awaitChild(cluster, namespace.name(), "after").getData()).containsEntry("size", "2");
            await().atMost(WAIT).untilAsserted(() ->
                    assertThat(fixture.examples().status("after")).containsEntry("create", "after-child"));
            assertThat(logins).as("re-logged in once, with the second token").hasValue(2);
            assertThat(operator.failure()).isEmpty();
        }
    }

    @Test
    void aClientThatAHandlerBuildsItselfReachesTheClusterOfKopfRunner(LocalCluster cluster, TemporaryNamespace namespace) {
        OperatorFixture fixture = new OperatorFixture(cluster, namespace);
        String before = System.getProperty(Config.KUBERNETES_KUBECONFIG_FILE);
        try (KopfRunner runner = fixture.run(OwnClient.class)) {
            assertThat(System.getProperty(Config.KUBERNETES_KUBECONFIG_FILE))
                    .isEqualTo(cluster.kubeconfig().toAbsolutePath().toString());
            fixture.examples().create("ex", Map.of("size", 5));

            assertThat(awaitChild(cluster, namespace.name(), "ex").getData()).containsEntry("size", "5");
        }
        assertThat(System.getProperty(Config.KUBERNETES_KUBECONFIG_FILE)).as("restored when the runner closes")
                .isEqualTo(before);
    }
}
