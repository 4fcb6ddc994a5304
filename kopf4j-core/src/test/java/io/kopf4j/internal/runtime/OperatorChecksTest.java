package io.kopf4j.internal.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class OperatorChecksTest {
    @Test
    void anExpectedCheckFailsUntilItsEngineRegistersItInTheSamePlace() throws Exception {
        OperatorChecks checks = new OperatorChecks();
        checks.expectLiveness("watchers");
        checks.expectReadiness("watch-cache-sync", "not listed yet");
        checks.readiness("database", () -> { });   // the user's, after the engines'

        checks.liveness().get("watchers").check();   // an expected liveness check passes
        assertThatThrownBy(() -> checks.readiness().get("watch-cache-sync").check()).hasMessage("not listed yet");

        checks.readiness("watch-cache-sync", () -> { });
        checks.readiness("webhook-server", () -> { });   // a late engine's own: appended
        checks.readiness().get("watch-cache-sync").check();
        assertThat(checks.liveness()).containsOnlyKeys("ping", "watchers");
        assertThat(checks.liveness().keySet()).containsExactly("ping", "watchers");
        assertThat(checks.readiness().keySet()).containsExactly("watch-cache-sync", "database", "webhook-server");
    }
}
