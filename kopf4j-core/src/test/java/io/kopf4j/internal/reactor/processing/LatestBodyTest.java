package io.kopf4j.internal.reactor.processing;

import static org.assertj.core.api.Assertions.assertThat;

import io.kopf4j.internal.structs.Json;
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
        // As watch events are: parsed by Json, in the API server's key order.
        Map<String, Object> body = Json.parseMap("""
                {"spec": {"items": ["a", "ü"], "big": 123456789012345678901234567890, "ratio": 0.5,
                          "large": 12345678901, "small": 2, "none": {}},
                 "metadata": {"name": "ex", "generation": 2}}""");
        latest.set(body);
        assertThat(latest.get()).isEqualTo(body).isNotSameAs(body);
        assertThat(latest.get().keySet()).containsExactly("spec", "metadata");
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
