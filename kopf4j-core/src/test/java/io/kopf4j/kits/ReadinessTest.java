package io.kopf4j.kits;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ReadinessTest {
    private static Map<String, Object> object(String kind, long generation, Map<String, Object> spec, Map<String, Object> status) {
        return Map.of("kind", kind, "metadata", Map.of("name", "x", "generation", generation), "spec", spec, "status", status);
    }

    private static Map<String, Object> condition(String type, String status, String reason) {
        return Map.of("type", type, "status", status, "reason", reason, "message", reason + " happened");
    }

    @Test
    void aDeploymentIsReadyWhenAllItsReplicasAreUpdatedAndAvailable() {
        assertThat(Readiness.of(new DeploymentBuilder().withNewMetadata().withName("web").withGeneration(2L).endMetadata()
                .withNewSpec().withReplicas(3).endSpec()
                .withNewStatus().withObservedGeneration(2L).withReplicas(3).withUpdatedReplicas(3).withAvailableReplicas(1)
                .withReadyReplicas(1).endStatus().build()))
                .isEqualTo(new Readiness(false, false, "Progressing", "Available: 1/3"));
        assertThat(Readiness.of(object("Deployment", 2, Map.of(), Map.of("observedGeneration", 2, "replicas", 1,
                "updatedReplicas", 1, "availableReplicas", 1, "readyReplicas", 1))).ready()).isTrue();
        assertThat(Readiness.of(object("Deployment", 3, Map.of(), Map.of("observedGeneration", 2, "replicas", 1,
                "updatedReplicas", 1, "availableReplicas", 1)))).isEqualTo(new Readiness(false, false, "Progressing",
                "observed generation 2 of 3"));
        assertThat(Readiness.of(object("Deployment", 1, Map.of("replicas", 2), Map.of("replicas", 3, "updatedReplicas", 2,
                "availableReplicas", 2))).message()).isEqualTo("Pending termination: 1");
        Readiness stuck = Readiness.of(object("Deployment", 1, Map.of(), Map.of("conditions",
                List.of(condition("Progressing", "False", "ProgressDeadlineExceeded")))));
        assertThat(stuck.failed()).isTrue();
        assertThat(stuck.reason()).isEqualTo("ProgressDeadlineExceeded");
    }

    @Test
    void aStatefulSetIsReadyWhenAllAreReadyOnTheCurrentRevision() {
        assertThat(Readiness.of(object("StatefulSet", 1, Map.of("replicas", 3), Map.of("readyReplicas", 2))).message())
                .isEqualTo("Ready: 2/3");
        assertThat(Readiness.of(object("StatefulSet", 1, Map.of("replicas", 3), Map.of("readyReplicas", 3,
                "currentRevision", "a", "updateRevision", "b", "updatedReplicas", 1))).message()).isEqualTo("Updated: 1/3");
        assertThat(Readiness.of(object("StatefulSet", 1, Map.of("replicas", 3, "updateStrategy", Map.of("type", "OnDelete")),
                Map.of("readyReplicas", 0, "currentRevision", "a", "updateRevision", "b"))).ready()).isTrue();
        Map<String, Object> partitioned = Map.of("replicas", 4, "updateStrategy", Map.of("type", "RollingUpdate",
                "rollingUpdate", Map.of("partition", 2)));
        assertThat(Readiness.of(object("StatefulSet", 1, partitioned, Map.of("replicas", 4, "readyReplicas", 4,
                "updatedReplicas", 1, "currentRevision", "a", "updateRevision", "b"))).message()).isEqualTo("Updated: 1/2");
        assertThat(Readiness.of(object("StatefulSet", 1, partitioned, Map.of("replicas", 4, "readyReplicas", 4,
                "updatedReplicas", 2, "currentRevision", "a", "updateRevision", "b"))).ready()).isTrue();
        assertThat(Readiness.of(object("StatefulSet", 1, Map.of("replicas", 1), Map.of("replicas", 3, "readyReplicas", 3)))
                .message()).isEqualTo("Pending termination: 2");
    }

    @Test
    void aJobIsReadyWhenCompleteAndFailedWhenFailed() {
        assertThat(Readiness.of(object("Job", 1, Map.of(), Map.of("conditions", List.of(condition("Complete", "True", "Done"))))).ready())
                .isTrue();
        assertThat(Readiness.of(object("Job", 1, Map.of(), Map.of("conditions", List.of(condition("Failed", "True", "BackoffLimitExceeded"))))))
                .isEqualTo(new Readiness(false, true, "Failed", "BackoffLimitExceeded happened"));
        assertThat(Readiness.of(object("Job", 1, Map.of(), Map.of())).reason()).isEqualTo("Running");
    }

    @Test
    void claimsPodsServicesAndOthers() {
        assertThat(Readiness.of(object("PersistentVolumeClaim", 1, Map.of(), Map.of("phase", "Bound"))).ready()).isTrue();
        assertThat(Readiness.of(object("PersistentVolumeClaim", 1, Map.of(), Map.of())).message()).isEqualTo("phase: Pending");
        assertThat(Readiness.of(object("Pod", 1, Map.of(), Map.of("phase", "Running",
                "conditions", List.of(condition("Ready", "True", "Ok"))))).ready()).isTrue();
        assertThat(Readiness.of(object("Pod", 1, Map.of(), Map.of("phase", "Running"))).ready()).isFalse();
        assertThat(Readiness.of(object("Service", 1, Map.of("type", "LoadBalancer"), Map.of())).ready()).isFalse();
        assertThat(Readiness.of(object("Service", 1, Map.of("type", "ClusterIP"), Map.of())).ready()).isTrue();
        assertThat(Readiness.of(new ConfigMapBuilder().withNewMetadata().withName("c").endMetadata().build()).ready()).isTrue();
        assertThat(Readiness.of(object("Database", 1, Map.of(), Map.of("conditions", List.of(condition("Ready", "False", "Provisioning"))))))
                .isEqualTo(new Readiness(false, false, "Provisioning", "Provisioning happened"));
        assertThat(Readiness.of(object("Database", 1, Map.of(), Map.of("conditions", List.of(Map.of("type", "Ready",
                "status", "False", "reason", "waiting for the primary"))))).reason()).isEqualTo("WaitingForThePrimary");
        assertThat(Readiness.of(object("Database", 1, Map.of(), Map.of("conditions", List.of(Map.of("type", "Ready",
                "status", "False", "reason", " -- "))))).reason()).isEqualTo("NotReady");
        assertThat(Readiness.of(null)).isEqualTo(Readiness.ABSENT);
        // Garbage where a status should be: judged as far as it can be, never thrown at the parent's handler.
        assertThat(Readiness.of(Map.of("kind", "Deployment", "status", "garbage", "spec", List.of())).message()).isEqualTo("Updated: 0/1");
    }
}
