package io.kopf4j.internal.watching;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.client.KubernetesClientException;
import io.kopf4j.internal.structs.Json;
import org.junit.jupiter.api.Test;

class StreamEventTest {
    @Test
    void aChangeIsDeliveredAndAdvancesTheVersion() {
        StreamEvent event = StreamEvent.of(Json.parseMap(
                "{\"type\":\"MODIFIED\",\"object\":{\"metadata\":{\"name\":\"ex\",\"resourceVersion\":\"12\"},\"spec\":{}}}"));

        assertThat(event.delivered()).isTrue();
        assertThat(event.type()).isEqualTo("MODIFIED");
        assertThat(event.object()).containsKey("spec");
        assertThat(event.resourceVersion()).isEqualTo("12");
        assertThat(event.failure()).isNull();
    }

    @Test
    void aBookmarkAdvancesTheVersionButIsNotDelivered() {
        StreamEvent event = StreamEvent.of(Json.parseMap(
                "{\"type\":\"BOOKMARK\",\"object\":{\"kind\":\"KopfExample\",\"metadata\":{\"resourceVersion\":\"34\"}}}"));

        assertThat(event.delivered()).isFalse();
        assertThat(event.bookmark()).isTrue();
        assertThat(event.resourceVersion()).isEqualTo("34");
        assertThat(event.failure()).isNull();
    }

    @Test
    void anErrorWithTheStatus410IsTheExpiredVersion() {
        StreamEvent event = StreamEvent.of(Json.parseMap("{\"type\":\"ERROR\",\"object\":{\"kind\":\"Status\",\"apiVersion\":\"v1\","
                + "\"metadata\":{},\"status\":\"Failure\",\"message\":\"too old resource version: 5 (9)\",\"reason\":\"Expired\",\"code\":410}}"));

        KubernetesClientException failure = event.failure();

        assertThat(event.delivered()).isFalse();
        assertThat(failure.getCode()).isEqualTo(410);
        assertThat(failure.getStatus().getMessage()).isEqualTo("too old resource version: 5 (9)");
    }

    @Test
    void anotherErrorIsAFailureWithItsCodeAndKopfsText() {
        StreamEvent event = StreamEvent.of(Json.parseMap("{\"type\":\"ERROR\",\"object\":{\"kind\":\"Status\","
                + "\"status\":\"Failure\",\"message\":\"etcd is down\",\"reason\":\"InternalError\",\"code\":500}}"));

        KubernetesClientException failure = event.failure();

        assertThat(failure.getCode()).isEqualTo(500);
        assertThat(failure.getMessage()).startsWith("Error in the watch-stream: {'kind': 'Status', ");
    }

    @Test
    void anErrorWithoutAStatusIsAFailureWithoutACode() {
        KubernetesClientException failure = StreamEvent.of(Json.parseMap("{\"type\":\"ERROR\",\"object\":{}}")).failure();

        assertThat(failure.getCode()).isZero();
        assertThat(failure.getMessage()).isEqualTo("Error in the watch-stream: {}");
    }

    @Test
    void anUnknownTypeIsNeitherDeliveredNorAFailure() {
        StreamEvent event = StreamEvent.of(Json.parseMap("{\"type\":\"SOMETHING\",\"object\":{\"metadata\":{}}}"));

        assertThat(event.delivered()).isFalse();
        assertThat(event.bookmark()).isFalse();
        assertThat(event.failure()).isNull();
        assertThat(event.resourceVersion()).isNull();
    }
}
