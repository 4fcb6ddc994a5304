package io.kopf4j.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.kopf4j.Activity;
import io.kopf4j.ActivityError;
import io.kopf4j.Handler;
import io.kopf4j.InvalidHandlerException;
import io.kopf4j.LoginError;
import io.kopf4j.Operator;
import io.kopf4j.envtest.LocalCluster;
import io.kopf4j.envtest.LocalClusterExtension;
import io.kopf4j.envtest.TemporaryNamespace;
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

    /** An operator whose handlers' ids and results name it, so that each object shows which operator handled it. */
    private static Operator operator(OperatorFixture fixture, String id) {
        return fixture.operator()
                .handler(Handler.create("kopfexamples").id(id).handle(context -> "by " + id))
                .handler(Handler.update("kopfexamples").id(id + "-size").field("spec.size")
                        .current(size -> size instanceof Number n && n.intValue() > 1)
                        .handle(context -> "grew to " + context.current()))
                .build();
    }

    @Test
    void twoOperatorsInOneJvmDoNotInterfere(LocalCluster cluster, TemporaryNamespace first, TemporaryNamespace second)
            throws Exception {
        OperatorFixture one = new OperatorFixture(cluster, first);
        OperatorFixture two = new OperatorFixture(cluster, second);
        try (CapturedLogs logs = new CapturedLogs("kopf.objects");
             Operator a = operator(one, "a"); Operator b = operator(two, "b")) {
            a.start();
            b.start();
            assertThat(a.awaitListed(WAIT)).isTrue();
            assertThat(b.awaitListed(WAIT)).isTrue();
            one.examples().create("x", Map.of("size", 1));
            two.examples().create("x", Map.of("size", 1));
            // Each summary counts the handlers that ran for the change: had the operators shared their
            // handlers, two would have run for each object.
            await().atMost(WAIT).until(() -> logs.contains(one.about("x") + "Creation is processed: 1 succeeded; 0 failed.")
                    && logs.contains(two.about("x") + "Creation is processed: 1 succeeded; 0 failed."));
            await().atMost(WAIT).untilAsserted(() -> {
                assertThat(one.examples().status("x")).isEqualTo(Map.of("a", "by a"));
                assertThat(two.examples().status("x")).isEqualTo(Map.of("b", "by b"));
            });

            one.examples().patch("x", Map.of("spec", Map.of("size", 2)));
            two.examples().patch("x", Map.of("spec", Map.of("size", 3)));
            await().atMost(WAIT).until(() -> logs.contains(one.about("x") + "Updating is processed: 1 succeeded; 0 failed.")
                    && logs.contains(two.about("x") + "Updating is processed: 1 succeeded; 0 failed."));
            await().atMost(WAIT).untilAsserted(() -> {
                assertThat(one.examples().status("x")).isEqualTo(Map.of("a", "by a", "a-size/spec.size", "grew to 2"));
                assertThat(two.examples().status("x")).isEqualTo(Map.of("b", "by b", "b-size/spec.size", "grew to 3"));
            });
        }
    }

    @Test
    void anApplicationRunsItInTheBackgroundWithReadyAndStopSignals(LocalCluster cluster, TemporaryNamespace namespace)
            throws Exception {
        OperatorFixture fixture = new OperatorFixture(cluster, namespace);
        Operator operator = operator(fixture, "bg");
        Thread thread = Thread.ofVirtual().start(operator::run);
        operator.ready().toCompletableFuture().get(WAIT.toSeconds(), TimeUnit.SECONDS);
        fixture.examples().create("x", Map.of("size", 1));
        await().atMost(WAIT).untilAsserted(() -> assertThat(fixture.examples().status("x")).isEqualTo(Map.of("bg", "by bg")));
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
                .hasCauseInstanceOf(ActivityError.class)
                .hasMessageEndingWith("'login_with_kubeconfig': kubeconfig file not found: /nonexistent/kubeconfig");
        assertThat(thread.join(WAIT)).isTrue();
        assertThat(thrown.get()).isInstanceOf(ActivityError.class).hasCauseInstanceOf(LoginError.class);
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
    void functionHandlersNeedAnIdAndFollowKopfsRulesCheckedAtRegistration() {
        Handler withoutId = Handler.create("kopfexamples").handle(context -> null);   // a description only
        assertThatThrownBy(() -> Operator.builder().handler(withoutId))
                .isInstanceOf(InvalidHandlerException.class)
                .hasMessageStartingWith("Handler for kopfexamples: handlers need an id, not blank");
        assertThatThrownBy(() -> Operator.builder()
                .handler(Handler.update("kopfexamples").id("u").value(v -> true).handle(context -> null)))
                .hasMessage("Handler for kopfexamples 'u': the field's value filters (value, old and new) need a field");
        assertThatThrownBy(() -> Operator.builder().activity(Activity.startup(" ").handle(context -> null)))
                .isInstanceOf(InvalidHandlerException.class)
                .hasMessageStartingWith("Activity (startup): handlers need an id, not blank");
        assertThatThrownBy(() -> Operator.builder().activity(Activity.login("vault").retries(0).handle(context -> null)))
                .hasMessage("Activity 'vault': retries must be at least 1, got 0");
    }
}
