package io.kopf4j.storage;

import static org.assertj.core.api.Assertions.assertThat;

import io.kopf4j.Patch;
import io.kopf4j.internal.structs.Json;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ProgressStorageTest {
    private static final Instant STARTED = Instant.parse("2020-12-31T23:59:59.123456Z");
    private static final Instant STOPPED = Instant.parse("2021-01-01T00:00:00Z");

    private final ProgressRecord done = new ProgressRecord(STARTED, STOPPED, null, "create", 1, true, false, null, List.of());

    @Test
    void recordIsWrittenInKopfsFormat() {
        assertThat(Json.compactAscii(done.toMap())).isEqualTo("{\"started\":\"2020-12-31T23:59:59.123456+00:00\","
                + "\"stopped\":\"2021-01-01T00:00:00.000000+00:00\",\"purpose\":\"create\",\"retries\":1,"
                + "\"success\":true,\"failure\":false}");
    }

    @Test
    void recordsOfKopfAreReadIncludingNaiveTimestamps() {
        ProgressRecord record = ProgressRecord.fromMap(Json.parseMap("{\"started\":\"2020-12-31T23:59:59.123456\","
                + "\"delayed\":\"2021-01-01T00:01:00+00:00\",\"retries\":2,\"message\":\"boom\",\"subrefs\":[\"b/2\",\"b/1\"]}"));
        assertThat(record.started()).isEqualTo(STARTED);
        assertThat(record.delayed()).isEqualTo(Instant.parse("2021-01-01T00:01:00Z"));
        assertThat(record.retries()).isEqualTo(2);
        assertThat(record.success()).isFalse();
        assertThat(record.message()).isEqualTo("boom");
        assertThat(record.subrefs()).containsExactly("b/1", "b/2");
    }

    @Test
    void annotationsStorageStoresFetchesAndPurges() {
        AnnotationsProgressStorage storage = new AnnotationsProgressStorage("kopf.zalando.org", true);
        Patch patch = new Patch();
        storage.store("create_fn", done, Map.of(), patch);
        String encoded = (String) patch.annotations().get("kopf.zalando.org/create_fn");
        assertThat(patch.annotations()).containsOnlyKeys("kopf.zalando.org/create_fn");

        Map<String, Object> body = Map.of("metadata", Map.of("annotations", Map.of("kopf.zalando.org/create_fn", encoded)));
        assertThat(storage.fetch("create_fn", body)).isEqualTo(done);

        Patch purge = new Patch();
        storage.purge("create_fn", body, purge);
        storage.purge("other_fn", body, purge);
        assertThat(purge.annotations()).hasSize(1).containsEntry("kopf.zalando.org/create_fn", null);
    }

    @Test
    void purgeOfARecordOnlyInThePatchRemovesItFromThePatch() {
        AnnotationsProgressStorage storage = new AnnotationsProgressStorage("kopf.zalando.org", true);
        Patch patch = new Patch();
        storage.store("fn", done, Map.of(), patch);
        storage.purge("fn", Map.of(), patch);
        assertThat(patch.isEmpty()).isTrue();
    }

    @Test
    void foreignPrefixesAreMarkedKopfManaged() {
        Patch patch = new Patch();
        new AnnotationsProgressStorage("acme.com", true).store("fn", done, Map.of(), patch);
        assertThat(patch.annotations()).containsKeys("acme.com/fn").containsEntry("acme.com/kopf-managed", "yes");
    }

    @Test
    void touchChangesOnlyWhatDiffers() {
        AnnotationsProgressStorage storage = new AnnotationsProgressStorage("kopf.zalando.org", true);
        Map<String, Object> body = Map.of("metadata", Map.of("annotations", Map.of("kopf.zalando.org/touch-dummy", "t1")));
        Patch same = new Patch();
        storage.touch(body, same, "t1");
        assertThat(same.isEmpty()).isTrue();
        Patch cleared = new Patch();
        storage.touch(body, cleared, null);
        assertThat(cleared.annotations()).containsEntry("kopf.zalando.org/touch-dummy", null);
    }

    @Test
    void smartStorageReadsOldStatusRecordsButWritesAnnotationsOnly() {
        MultiProgressStorage smart = MultiProgressStorage.smart("kopf.zalando.org");
        Map<String, Object> old = Json.parseMap("{\"status\":{\"kopf\":{\"progress\":{\"fn\":{\"retries\":3}}}}}");
        assertThat(smart.fetch("fn", old).retries()).isEqualTo(3);
        Patch patch = new Patch();
        smart.store("fn", done, old, patch);
        assertThat(patch.toMap()).containsOnlyKeys("metadata");
        Patch purge = new Patch();
        smart.purge("fn", old, purge);
        assertThat(Json.compact(purge.toMap())).isEqualTo("{\"status\":{\"kopf\":{\"progress\":{\"fn\":null}}}}");
    }

    @Test
    void statusStorageKeepsNestedRecords() {
        StatusProgressStorage storage = new StatusProgressStorage();
        Patch patch = new Patch();
        storage.store("fn", done, Map.of(), patch);
        assertThat(Json.compact(patch.toMap())).startsWith("{\"status\":{\"kopf\":{\"progress\":{\"fn\":{\"started\":");
        assertThat(storage.clear(Json.parseMap("{\"spec\":{\"a\":1},\"status\":{\"kopf\":{\"progress\":{\"fn\":{}}}}}")))
                .isEqualTo(Map.of("spec", Map.of("a", 1)));
    }
}
