package io.kopf4j.internal.engines.children;

import static org.assertj.core.api.Assertions.assertThat;

import io.kopf4j.internal.structs.Json;
import java.util.Map;
import org.junit.jupiter.api.Test;

class OwnedFieldsTest {
    /** A Deployment as the API server returns it after kopf4j applied it and the controllers and defaults did their part. */
    private static final String LIVE = """
            {"apiVersion": "apps/v1", "kind": "Deployment",
             "metadata": {"name": "web", "namespace": "shop", "uid": "u", "resourceVersion": "9", "generation": 1,
               "labels": {"kopf4j.dev/managed-by": "kopf4j", "added-by-hand": "x"},
               "managedFields": [
                 {"manager": "kopf4j", "operation": "Apply", "apiVersion": "apps/v1", "fieldsType": "FieldsV1",
                  "fieldsV1": {"f:metadata": {"f:labels": {"f:kopf4j.dev/managed-by": {}}},
                    "f:spec": {"f:replicas": {}, "f:template": {"f:spec": {"f:containers": {
                      "k:{\\"name\\":\\"web\\"}": {".": {}, "f:name": {}, "f:image": {}, "f:ports": {
                        "k:{\\"containerPort\\":80,\\"protocol\\":\\"TCP\\"}": {".": {}, "f:containerPort": {}, "f:protocol": {}}}}}}}},
                    "f:finalizersLike": {"v:\\"a\\"": {}}}},
                 {"manager": "kube-controller-manager", "operation": "Update", "apiVersion": "apps/v1",
                  "fieldsV1": {"f:status": {"f:replicas": {}}}}]},
             "spec": {"replicas": 2, "revisionHistoryLimit": 10,
               "template": {"spec": {"containers": [
                 {"name": "sidecar", "image": "envoy"},
                 {"name": "web", "image": "nginx:1", "imagePullPolicy": "IfNotPresent",
                  "ports": [{"containerPort": 80, "protocol": "TCP"}]}]}}},
             "finalizersLike": ["b", "a"],
             "status": {"replicas": 2}}
            """;

    private static Map<String, Object> desired(String image, int replicas) {
        return Json.parseMap("""
                {"apiVersion": "apps/v1", "kind": "Deployment",
                 "metadata": {"name": "web", "namespace": "shop", "labels": {"kopf4j.dev/managed-by": "kopf4j"}},
                 "spec": {"replicas": %d, "template": {"spec": {"containers": [
                   {"name": "web", "image": "%s", "ports": [{"containerPort": 80, "protocol": "TCP"}]}]}}},
                 "finalizersLike": ["a"]}
                """.formatted(replicas, image));
    }

    @Test
    void theSameAppliedFieldsAreUnchangedWhateverOthersOwn() {
        assertThat(OwnedFields.unchanged(desired("nginx:1", 2), Json.parseMap(LIVE), "kopf4j")).isTrue();
    }

    @Test
    void aChangeOfAnOwnedFieldIsAChange() {
        assertThat(OwnedFields.unchanged(desired("nginx:2", 2), Json.parseMap(LIVE), "kopf4j")).isFalse();
        assertThat(OwnedFields.unchanged(desired("nginx:1", 3), Json.parseMap(LIVE), "kopf4j")).isFalse();
        Map<String, Object> more = desired("nginx:1", 2);
        ((Map<String, Object>) more.get("metadata")).put("annotations", Map.of("note", "new"));
        assertThat(OwnedFields.unchanged(more, Json.parseMap(LIVE), "kopf4j")).isFalse();
    }

    @Test
    void inDoubtItIsAChange() {
        assertThat(OwnedFields.unchanged(desired("nginx:1", 2), null, "kopf4j")).isFalse();
        assertThat(OwnedFields.unchanged(desired("nginx:1", 2), Json.parseMap(LIVE), "someone-else")).isFalse();
        Map<String, Object> otherVersion = desired("nginx:1", 2);
        otherVersion.put("apiVersion", "apps/v1beta2");
        assertThat(OwnedFields.unchanged(otherVersion, Json.parseMap(LIVE), "kopf4j")).isFalse();
    }
}
