package io.kopf4j.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.kopf4j.Handler;
import io.kopf4j.InvalidHandlerException;
import io.kopf4j.Operator;
import io.kopf4j.testing.LocalCluster;
import io.kopf4j.testing.LocalClusterExtension;
import io.kopf4j.testing.TemporaryNamespace;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Operators embedded in an application, with handlers as functions; two in one JVM share nothing. */
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
    void functionHandlersNeedAnIdAndFollowKopfsRules() {
        assertThatThrownBy(() -> Handler.create("kopfexamples").handle(context -> null))
                .isInstanceOf(InvalidHandlerException.class)
                .hasMessage("Handler for kopfexamples: handlers registered as functions need an id, e.g. .id(\"create\")");
        assertThatThrownBy(() -> Handler.update("kopfexamples").id("u").value(v -> true).handle(context -> null))
                .hasMessage("Handler for kopfexamples 'u': value, old and current need a field");
    }
}
