package io.kopf4j.reactor.processing;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigInteger;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class LatestBodyTest {
    @Test
    void nothingSetIsNull() {
        assertThat(new LatestBody().get()).isNull();
    }

    @Test
    void theBodyReadBackEqualsTheBodySetWithItsNumberTypes() {
        LatestBody latest = new LatestBody();
        Map<String, Object> body = Map.of("metadata", Map.of("name", "ex", "generation", 2),
                "spec", Map.of("items", List.of("a", "ü"), "big", new BigInteger("123456789012345678901234567890"),
                        "ratio", 0.5, "large", 12345678901L, "none", Map.of()));
        latest.set(body);
        assertThat(latest.get()).isEqualTo(body).isNotSameAs(body);
    }

    @Test
    void aNewerBodyReplacesTheOlderOne() {
        LatestBody latest = new LatestBody();
        latest.set(Map.of("spec", Map.of("size", 1)));
        latest.get();
        latest.set(Map.of("spec", Map.of("size", 2)));
        assertThat(latest.get()).isEqualTo(Map.of("spec", Map.of("size", 2)));
    }

    @Test
    void readsInABurstShareOneParse() {
        LatestBody latest = new LatestBody();
        latest.set(Map.of("spec", Map.of("size", 1)));
        Map<String, Object> first = latest.get();
        assertThat(latest.get()).as("cached while someone holds it").isSameAs(first);
    }
}
