package io.kopf4j.storage;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Expected values were computed with Kopf's algorithm in Python (hashlib.blake2b). */
class StorageKeysTest {
    private final StorageKeys keys = new StorageKeys("kopf.zalando.org", true);

    @Test
    void hashSuffixIsKopfs() {
        assertThat(StorageKeys.suffix("create_fn")).isEqualTo("-AZjFuA");
        assertThat(StorageKeys.suffix("a".repeat(70))).isEqualTo("-DKa84Q");
    }

    @Test
    void shortIdsAreKeptAndSubHandlerSlashesBecomeDots() {
        assertThat(keys.keys("create_fn", Map.of())).containsExactly("kopf.zalando.org/create_fn");
        assertThat(keys.keys("create_fn/sub1", Map.of())).containsExactly("kopf.zalando.org/create_fn.sub1");
    }

    @Test
    void longIdsGetV2AndV1KeysCutWithHashes() {
        String id = "very_long_handler_name_for_testing_the_limit_of_sixty_three_chars/child";
        assertThat(keys.keys(id, Map.of())).containsExactly(
                "kopf.zalando.org/very_long_handler_name_for_testing_the_limit_of_sixty_th-MI6aZg",
                "kopf.zalando.org/very_long_handler_name_for_testing_the_--m1ThA");
        String sixtyThree = "x".repeat(63);
        assertThat(keys.keys(sixtyThree, Map.of())).containsExactly(
                "kopf.zalando.org/" + sixtyThree,
                "kopf.zalando.org/" + "x".repeat(39) + "-GINbRg");
    }

    @Test
    void withoutV1OnlyV2KeysAreUsed() {
        assertThat(new StorageKeys("kopf.zalando.org", false).keys("x".repeat(63), Map.of()))
                .containsExactly("kopf.zalando.org/" + "x".repeat(63));
    }

    @Test
    void replicaSetsOfDeploymentsAreMarked() {
        Map<String, Object> replicaSet = Map.of("kind", "ReplicaSet",
                "metadata", Map.of("ownerReferences", List.of(Map.of("kind", "Deployment"))));
        assertThat(keys.keys("create_fn", replicaSet)).containsExactly("kopf.zalando.org/create_fn-ofDRS");
    }
}
