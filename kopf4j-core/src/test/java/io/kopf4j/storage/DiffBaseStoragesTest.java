package io.kopf4j.storage;

import static org.assertj.core.api.Assertions.assertThat;

import io.kopf4j.Patch;
import io.kopf4j.internal.structs.Json;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class DiffBaseStoragesTest {
    private final Map<String, Object> body = Json.parseMap(
            "{\"metadata\":{\"name\":\"x\"},\"spec\":{\"size\":1,\"data\":\"huge\"},\"status\":{\"phase\":\"Ready\"}}");

    @Test
    void statusStorageKeepsTheEssenceAsAStringInStatus() {
        StatusDiffBaseStorage storage = new StatusDiffBaseStorage();
        Patch patch = new Patch();
        storage.store(body, patch, storage.build(body));
        assertThat(Json.compact(patch.toMap()))
                .isEqualTo("{\"status\":{\"kopf\":{\"last-handled-configuration\":\"{\\\"spec\\\":{\\\"size\\\":1,\\\"data\\\":\\\"huge\\\"}}\"}}}");
        Map<String, Object> handled = Json.parseMap(Json.compact(Map.of("status", Map.of("kopf", Map.of(
                "last-handled-configuration", "{\"spec\":{\"size\":1}}")))));
        assertThat(storage.fetch(handled)).isEqualTo(Map.of("spec", Map.of("size", 1)));
    }

    @Test
    void ignoredFieldsAreNotPartOfTheEssence() {
        AnnotationsDiffBaseStorage storage = new AnnotationsDiffBaseStorage("kopf.zalando.org",
                AnnotationsDiffBaseStorage.DEFAULT_KEY, List.of("spec.data"));
        assertThat(storage.build(body)).isEqualTo(Map.of("spec", Map.of("size", 1)));
    }

    @Test
    void multiStorageWritesAllAndReadsTheFirstFound() {
        MultiDiffBaseStorage storage = new MultiDiffBaseStorage(List.of(
                new AnnotationsDiffBaseStorage("kopf.zalando.org"), new StatusDiffBaseStorage()));
        Patch patch = new Patch();
        storage.store(body, patch, Map.of("spec", Map.of("size", 1)));
        assertThat(patch.annotations()).containsKey("kopf.zalando.org/last-handled-configuration");
        assertThat(Json.compact(patch.toMap())).contains("\"last-handled-configuration\":\"{\\\"spec\\\"");
        Map<String, Object> onlyStatus = Json.parseMap(Json.compact(Map.of("status", Map.of("kopf", Map.of(
                "last-handled-configuration", "{\"spec\":{\"size\":2}}")))));
        assertThat(storage.fetch(onlyStatus)).isEqualTo(Map.of("spec", Map.of("size", 2)));
    }

    @Test
    void foreignPrefixesAreMarkedKopfManaged() {
        Patch patch = new Patch();
        new AnnotationsDiffBaseStorage("acme.com").store(body, patch, Map.of());
        assertThat(patch.annotations()).containsEntry("acme.com/kopf-managed", "yes")
                .containsKey("acme.com/last-handled-configuration");
    }
}
