package io.kopf4j;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** Kopf's defaults pass the start's validation; every invalid value gets one clear line naming it. */
class OperatorSettingsTest {
    private static void assertInvalid(Consumer<OperatorSettings> change, String message) {
        OperatorSettings settings = new OperatorSettings();
        change.accept(settings);
        assertThatThrownBy(settings::validate).isInstanceOf(OperatorException.class).hasMessage(message);
    }

    @Test
    void kopfsDefaultsAreValid() {
        assertThatCode(new OperatorSettings()::validate).doesNotThrowAnyException();
    }

    @Test
    void kopfsDeprecatedBatchingIsTheQueueingItValidates() {
        assertInvalid(s -> s.batching.workerLimit = 0,
                "invalid setting settings.queueing.workerLimit: must be at least 1 (or null for no limit), got 0");
    }

    @Test
    void invalidValuesAreNamedWithTheRuleAndTheValue() {
        assertInvalid(s -> s.queueing.workerLimit = 0,
                "invalid setting settings.queueing.workerLimit: must be at least 1 (or null for no limit), got 0");
        assertInvalid(s -> s.execution.maxWorkers = -1,
                "invalid setting settings.execution.maxWorkers: must be at least 1 (or null for no limit), got -1");
        assertInvalid(s -> s.networking.requestTimeout = Duration.ZERO,
                "invalid setting settings.networking.requestTimeout: must be positive, got PT0S");
        assertInvalid(s -> s.execution.defaultBackoff = Duration.ofSeconds(-1),
                "invalid setting settings.execution.defaultBackoff: must not be negative, got PT-1S");
        assertInvalid(s -> s.watching.inactivityTimeout = null,
                "invalid setting settings.watching.inactivityTimeout: must be set");
        assertInvalid(s -> s.persistence.finalizer = "not a finalizer",
                "invalid setting settings.persistence.finalizer: must be a qualified name such as example.com/finalizer,"
                        + " got not a finalizer");
        assertInvalid(s -> s.queueing.errorDelays = List.of(Duration.ofSeconds(1), Duration.ofSeconds(-2)),
                "invalid setting settings.queueing.errorDelays: must contain no null or negative delays, got PT-2S");
        assertInvalid(s -> s.process.ultimateExitingTimeout = Duration.ZERO,
                "invalid setting settings.process.ultimateExitingTimeout: must be positive (or null for none), got PT0S");
        assertInvalid(s -> s.peering.name = "",
                "invalid setting settings.peering.name: must not be empty, got ");
        assertInvalid(s -> s.networking.maxConcurrentRequests = 0,
                "invalid setting settings.networking.maxConcurrentRequests: must be at least 1, got 0");
        assertInvalid(s -> s.networking.errorBackoffs = Arrays.asList(Duration.ofSeconds(1), null),
                "invalid setting settings.networking.errorBackoffs: must contain no null or negative delays");
        assertInvalid(s -> s.posting.reportingComponent = " ",
                "invalid setting settings.posting.reportingComponent: must not be empty, got  ");
        assertInvalid(s -> s.posting.queueSize = 0,
                "invalid setting settings.posting.queueSize: must be at least 1, got 0");
        assertInvalid(s -> s.posting.burst = 0,
                "invalid setting settings.posting.burst: must be at least 1, got 0");
        assertInvalid(s -> s.posting.refillInterval = Duration.ZERO,
                "invalid setting settings.posting.refillInterval: must be positive, got PT0S");
        assertInvalid(s -> s.posting.repeatInterval = Duration.ofSeconds(-1),
                "invalid setting settings.posting.repeatInterval: must not be negative, got PT-1S");
        assertInvalid(s -> s.posting.similarLimit = 0,
                "invalid setting settings.posting.similarLimit: must be at least 1, got 0");
        assertInvalid(s -> s.posting.correlationWindow = null,
                "invalid setting settings.posting.correlationWindow: must be set");
        assertInvalid(s -> {
            s.sharding.shards = OperatorSettings.Sharding.AUTO;
            s.sharding.renewPeriod = Duration.ofSeconds(10);
        }, "invalid setting settings.sharding.renewPeriod: must be at most half of sharding.leaseDuration, got PT10S");
        assertInvalid(s -> s.sharding.shards = -1,
                "invalid setting settings.sharding.shards: must be Sharding.AUTO (0) or a count of slots, got -1");
        assertInvalid(s -> {
            s.sharding.shards = 3;
            s.sharding.group = "My Group";
        }, "invalid setting settings.sharding.group: must be a lowercase DNS name (or null for the default), got My Group");
        assertInvalid(s -> s.watching.listPageSize = 0,
                "invalid setting settings.watching.listPageSize: must be at least 1, got 0");
        assertInvalid(s -> s.background.instantExitTimeout = Duration.ofSeconds(-1),
                "invalid setting settings.background.instantExitTimeout: must not be negative, got PT-1S");
        assertInvalid(s -> s.admission.managed = " ",
                "invalid setting settings.admission.managed: must not be blank, got  ");
    }

    @Test
    void leaderElectionHasControllerRuntimesTimings() {
        OperatorSettings.Leadership defaults = new OperatorSettings().leadership;
        assertThat(defaults.enabled).isFalse();
        assertThat(defaults.leaseName).isEqualTo("kopf4j-leader");
        assertThat(defaults.leaseNamespace).isNull();
        assertThat(List.of(defaults.leaseDuration, defaults.renewDeadline, defaults.retryPeriod))
                .containsExactly(Duration.ofSeconds(15), Duration.ofSeconds(10), Duration.ofSeconds(2));
    }

    @Test
    void shortLeaderElectionTimingsAreValidAsLongAsTheyNest() {
        OperatorSettings settings = new OperatorSettings();
        settings.leadership.leaseDuration = Duration.ofSeconds(4);
        settings.leadership.renewDeadline = Duration.ofSeconds(3);
        settings.leadership.retryPeriod = Duration.ofMillis(500);
        settings.leadership.leaseName = "example.com-operator";
        settings.leadership.leaseNamespace = "operators";
        assertThatCode(settings::validate).doesNotThrowAnyException();
    }

    @Test
    void leaderElectionTimingsFollowClientGosRules() {
        assertInvalid(s -> s.leadership.renewDeadline = Duration.ofSeconds(15),
                "invalid setting settings.leadership.renewDeadline: must be shorter than leadership.leaseDuration (PT15S),"
                        + " got PT15S");
        assertInvalid(s -> s.leadership.retryPeriod = Duration.ofMillis(8500),
                "invalid setting settings.leadership.retryPeriod: times 1.2 must be shorter than leadership.renewDeadline"
                        + " (PT10S), got PT8.5S");
        assertInvalid(s -> s.leadership.leaseDuration = Duration.ofMillis(15500),
                "invalid setting settings.leadership.leaseDuration: must be whole seconds, got PT15.5S");
        assertInvalid(s -> s.leadership.retryPeriod = Duration.ZERO,
                "invalid setting settings.leadership.retryPeriod: must be positive, got PT0S");
        assertInvalid(s -> s.leadership.renewDeadline = null,
                "invalid setting settings.leadership.renewDeadline: must be set");
    }

    @Test
    void theLeaseNeedsAValidNameAndNamespace() {
        assertInvalid(s -> s.leadership.leaseName = "Not_A_Name",
                "invalid setting settings.leadership.leaseName: must be a DNS subdomain name such as example-operator,"
                        + " got Not_A_Name");
        assertInvalid(s -> s.leadership.leaseName = null,
                "invalid setting settings.leadership.leaseName: must be a DNS subdomain name such as example-operator");
        assertInvalid(s -> s.leadership.leaseNamespace = "a.b",
                "invalid setting settings.leadership.leaseNamespace: must be a namespace's name (or null for the"
                        + " operator's own), got a.b");
    }

    @Test
    void infiniteBackoffSequencesAreCheckedWithoutEnd() {
        OperatorSettings settings = new OperatorSettings();
        settings.networking.errorBackoffs = () -> Stream.generate(() -> Duration.ofSeconds(1)).iterator();
        settings.process.ultimateExitingTimeout = null;
        assertThatCode(settings::validate).doesNotThrowAnyException();
    }
}
