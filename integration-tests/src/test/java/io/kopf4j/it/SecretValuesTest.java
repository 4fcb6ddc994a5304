package io.kopf4j.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.kopf4j.Diff;
import io.kopf4j.On;
import io.kopf4j.envtest.LocalCluster;
import io.kopf4j.envtest.LocalClusterExtension;
import io.kopf4j.envtest.TemporaryNamespace;
import io.kopf4j.testing.KopfRunner;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * An operator of Secrets on the real API server: their values stay out of what kopf4j writes, the
 * diff-base annotation and the debug log, while a change of a value is still a change whose diff
 * names the key (docs/handlers.md, "Secrets").
 */
@ExtendWith(LocalClusterExtension.class)
class SecretValuesTest {
    private static final Duration WAIT = Duration.ofSeconds(60);
    static final List<Diff> UPDATES = new CopyOnWriteArrayList<>();

    public static class Handlers {
        @On.Create(value = "secrets", labels = "kopf4j-it-secrets")
        public String create() {
            return "seen";
        }

        @On.Update(value = "secrets", labels = "kopf4j-it-secrets")
        public void update(Diff diff) {
            UPDATES.add(diff);
        }
    }

    @Test
    void aSecretsValuesAreNeitherStoredNorLoggedButTheirChangesAreHandled(LocalCluster cluster, TemporaryNamespace namespace)
            throws Exception {
        OperatorFixture fixture = new OperatorFixture(cluster, namespace);
        String first = "first-password-4711";
        String second = "second-password-0815";
        try (KopfRunner runner = fixture.run(Handlers.class)) {
            cluster.client().secrets().inNamespace(namespace.name()).resource(secret(first)).create();
            await().atMost(WAIT).until(() -> runner.output().contains(fixture.about("credentials") + "Creation is processed: 1 succeeded"));
            await().atMost(WAIT).until(() -> annotations(cluster, namespace).containsKey("kopf.zalando.org/last-handled-configuration"));

            cluster.client().secrets().inNamespace(namespace.name()).withName("credentials")
                    .edit(secret -> new SecretBuilder(secret).addToData("password", base64(second)).build());
            await().atMost(WAIT).until(() -> !UPDATES.isEmpty());
            await().atMost(WAIT).until(() -> runner.output().contains(fixture.about("credentials") + "Updating is processed: 1 succeeded"));

            assertThat(UPDATES.getFirst().items()).singleElement().satisfies(item -> {
                assertThat(item.path()).containsExactly("data", "password");
                assertThat(String.valueOf(item.oldValue())).startsWith("sha256:");
                assertThat(String.valueOf(item.newValue())).startsWith("sha256:").isNotEqualTo(String.valueOf(item.oldValue()));
            });
            String diffBase = annotations(cluster, namespace).get("kopf.zalando.org/last-handled-configuration");
            assertThat(diffBase).contains("\"password\":\"sha256:").contains("\"user\":\"sha256:");
            for (String value : List.of(first, second, "admin")) {
                assertThat(diffBase).doesNotContain(value).doesNotContain(base64(value));
                assertThat(runner.output()).as("the debug log").doesNotContain(value).doesNotContain(base64(value));
            }
        }
    }

    private static Secret secret(String password) {
        return new SecretBuilder().withNewMetadata().withName("credentials").addToLabels("kopf4j-it-secrets", "yes").endMetadata()
                .addToData("user", base64("admin")).addToData("password", base64(password)).build();
    }

    private static Map<String, String> annotations(LocalCluster cluster, TemporaryNamespace namespace) {
        Map<String, String> annotations = cluster.client().secrets().inNamespace(namespace.name()).withName("credentials").get()
                .getMetadata().getAnnotations();
        return annotations == null ? Map.of() : annotations;
    }

    private static String base64(String text) {
        return Base64.getEncoder().encodeToString(text.getBytes(StandardCharsets.UTF_8));
    }
}
