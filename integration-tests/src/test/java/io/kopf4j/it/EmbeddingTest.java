package io.kopf4j.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.kopf4j.Activity;
import io.kopf4j.Handler;
import io.kopf4j.InvalidHandlerException;
import io.kopf4j.LoginError;
import io.kopf4j.Operator;
import io.kopf4j.testing.LocalCluster;
import io.kopf4j.testing.LocalClusterExtension;
import io.kopf4j.testing.TemporaryNamespace;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Operators embedded in an application, with handlers as functions; two in one JVM share nothing;
 * the ready signal, the stop signal, and run() on a thread of the application's.
 */
@ExtendWith(LocalClusterExtension.class)
class EmbeddingTest {
    private static final Duration WAIT = Duration.ofSeconds(30);

    private static Operator operator(LocalCluster cluster, String namespace, String id) {
        return Operator.builder()
                .handler(Handler.create("kopfexamples").id(id).handle(context -> "by " + id))
                .handler(Handler.update("kopfexamples").id(id + "-size").field("spec.size")
                        .current(size -> size instanceof Number n && n.intValue() > 1)
                        .handle(context -> "grew to " + context.current()))
                .namespaces(namespace)
                .kubeconfig(cluster.kubeconfig())
                .build();
    }

    @Test
    void twoOperatorsInOneJvmDoNotInterfere(LocalCluster cluster, TemporaryNamespace first, TemporaryNamespace second)
            throws Exception {
        KopfExamples one = new KopfExamples(cluster, first.name());
        KopfExamples two = new KopfExamples(cluster, second.name());
        try (Operator a = operator(cluster, first.name(), "a"); Operator b = operator(cluster, second.name(), "b")) {
            a.start();
            b.start();
            assertThat(a.awaitListed(WAIT)).isTrue();
            assertThat(b.awaitListed(WAIT)).isTrue();
            one.create("x", Map.of("size", 1));
            two.create("x", Map.of("size", 1));
            await().atMost(WAIT).untilAsserted(() -> {
                assertThat(one.status("x")).isEqualTo(Map.of("a", "by a"));
                assertThat(two.status("x")).isEqualTo(Map.of("b", "by b"));
            });
            one.patch("x", Map.of("spec", Map.of("size", 2)));
            await().atMost(WAIT).untilAsserted(() -> assertThat(one.status("x")).containsEntry("a-size/spec.size", "grew to 2"));
            assertThat(two.status("x")).doesNotContainKey("b-size/spec.size");
        }
    }

    @Test
    void anApplicationRunsItInTheBackgroundWithReadyAndStopSignals(LocalCluster cluster, TemporaryNamespace namespace)
            throws Exception {
        KopfExamples examples = new KopfExamples(cluster, namespace.name());
        Operator operator = operator(cluster, namespace.name(), "bg");
        Thread thread = Thread.ofVirtual().start(operator::run);
        operator.ready().toCompletableFuture().get(WAIT.toSeconds(), TimeUnit.SECONDS);
        examples.create("x", Map.of("size", 1));
        await().atMost(WAIT).untilAsserted(() -> assertThat(examples.status("x")).isEqualTo(Map.of("bg", "by bg")));
        operator.stop();
        assertThat(thread.join(WAIT)).as("run() returned").isTrue();
        assertThat(operator.failure()).isEmpty();
    }

    @Test
    void theReadySignalFailsWhenTheStartFails(LocalCluster cluster, TemporaryNamespace namespace) throws Exception {
        Operator operator = Operator.builder()
                .handler(Handler.create("kopfexamples").id("create").handle(context -> null))
                .namespaces(namespace.name()).kubeconfig(Path.of("/nonexistent/kubeconfig")).build();
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        Thread thread = Thread.ofVirtual().start(() -> {
            try {
                operator.run();
            } catch (RuntimeException e) {
                thrown.set(e);
            }
        });
        assertThatThrownBy(() -> operator.ready().toCompletableFuture().get(WAIT.toSeconds(), TimeUnit.SECONDS))
                .hasCauseInstanceOf(LoginError.class).hasMessageEndingWith("kubeconfig file not found: /nonexistent/kubeconfig");
        assertThat(thread.join(WAIT)).isTrue();
        assertThat(thrown.get()).isInstanceOf(LoginError.class);
        assertThat(operator.awaitTermination(Duration.ZERO)).isTrue();
    }

    @Test
    void aGivenClientExcludesLoginHandlers(LocalCluster cluster) {
        assertThatThrownBy(() -> Operator.builder().client(cluster.client())
                .activity(Activity.login("login").handle(context -> null))
                .handler(Handler.create("kopfexamples").id("create").handle(context -> null)).build())
                .isInstanceOf(InvalidHandlerException.class)
                .hasMessage("login handlers and a given client exclude each other: the client comes with its own credentials");
    }

    @Test
    void functionHandlersNeedAnIdAndFollowKopfsRules() {
        assertThatThrownBy(() -> Handler.create("kopfexamples").handle(context -> null))
                .isInstanceOf(InvalidHandlerException.class)
                .hasMessage("Handler for kopfexamples: handlers registered as functions need an id, e.g. .id(\"create\")");
        assertThatThrownBy(() -> Handler.update("kopfexamples").id("u").value(v -> true).handle(context -> null))
                .hasMessage("Handler for kopfexamples 'u': value, old and current need a field");
        assertThatThrownBy(() -> Activity.startup(" ")).isInstanceOf(InvalidHandlerException.class)
                .hasMessage("Activity handlers registered as functions need an id, e.g. Activity.startup(\"configure\")");
        assertThatThrownBy(() -> Activity.login("vault").retries(0))
                .hasMessage("Activity 'vault': retries must be at least 1, got 0");
    }
}
