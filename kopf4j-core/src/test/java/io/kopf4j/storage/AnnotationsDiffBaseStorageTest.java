package io.kopf4j.storage;

import static org.assertj.core.api.Assertions.assertThat;

import io.kopf4j.Patch;
import io.kopf4j.internal.structs.Json;
import java.util.Map;
import org.junit.jupiter.api.Test;

class AnnotationsDiffBaseStorageTest {
    private final AnnotationsDiffBaseStorage storage = new AnnotationsDiffBaseStorage("kopf.zalando.org");

    /** Kopf's example object, as the API server returns it after Kopf handled it once. */
    private final Map<String, Object> body = Json.parseMap("""
            {"apiVersion":"kopf.dev/v1","kind":"KopfExample",
             "metadata":{"name":"kopf-example-1","namespace":"default","uid":"u-1","resourceVersion":"42",
               "generation":1,"creationTimestamp":"2026-01-01T00:00:00Z",
               "labels":{"somelabel":"somevalue"},
               "annotations":{"someannotation":"somevalue",
                 "kubectl.kubernetes.io/last-applied-configuration":"{}",
                 "kopf.zalando.org/create_fn":"{\\"started\\":\\"2020-12-31T23:59:59.123456+00:00\\"}",
                 "other.kopf.zalando.org/x":"1",
                 "kopf.zalando.org/last-handled-configuration":"{\\"spec\\":{\\"duration\\":\\"1m\\",\\"field\\":\\"value\\",\\"items\\":[\\"item1\\",\\"item2\\"]},\\"metadata\\":{\\"labels\\":{\\"somelabel\\":\\"somevalue\\"},\\"annotations\\":{\\"someannotation\\":\\"somevalue\\"}}}\\n"}},
             "spec":{"duration":"1m","field":"value","items":["item1","item2"]},
             "status":{"create_fn":{"message":"done"}}}
            """);

    @Test
    void essenceKeepsSpecLabelsAndForeignAnnotationsOnly() {
        assertThat(Json.compact(storage.build(body))).isEqualTo(
                "{\"spec\":{\"duration\":\"1m\",\"field\":\"value\",\"items\":[\"item1\",\"item2\"]},"
                        + "\"metadata\":{\"labels\":{\"somelabel\":\"somevalue\"},\"annotations\":{\"someannotation\":\"somevalue\"}}}");
    }

    @Test
    void essenceDropsEmptyStanzas() {
        Map<String, Object> bare = Json.parseMap("{\"metadata\":{\"name\":\"x\",\"labels\":{},\"annotations\":{\"kopf.zalando.org/a\":\"1\"}},\"spec\":{\"a\":1}}");
        assertThat(Json.compact(storage.build(bare))).isEqualTo("{\"spec\":{\"a\":1}}");
    }

    @Test
    void annotationsOfOperatorsMarkedKopfManagedAreNotEssential() {
        Map<String, Object> marked = Json.parseMap("{\"metadata\":{\"annotations\":{\"acme.com/kopf-managed\":\"yes\",\"acme.com/h\":\"{}\",\"keep\":\"1\"}}}");
        assertThat(Json.compact(storage.build(marked))).isEqualTo("{\"metadata\":{\"annotations\":{\"keep\":\"1\"}}}");
    }

    @Test
    void diffBaseWrittenByKopfIsRecognisedAsTheCurrentEssence() {
        assertThat(Json.equal(storage.fetch(body), storage.build(body))).isTrue();
    }

    @Test
    void storesCompactJsonWithTrailingNewlineAndAsciiEscapes() {
        Patch patch = new Patch();
        storage.store(body, patch, Map.of("spec", Map.of("greeting", "grüß 😀")));
        // Byte for byte what Python's json.dumps(..., separators=(',', ':')) writes, surrogate pairs included.
        assertThat(patch.annotations()).containsEntry("kopf.zalando.org/last-handled-configuration",
                "{\"spec\":{\"greeting\":\"gr\\u00fc\\u00df \\ud83d\\ude00\"}}\n");
    }

    @Test
    void objectNeverHandledHasNoDiffBase() {
        assertThat(storage.fetch(Map.of("metadata", Map.of("name", "x")))).isNull();
    }
}
