package io.kopf4j.internal.reactor.processing;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.kopf4j.internal.reactor.queueing.Pressure;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/** Kopf's throttling of an object after unexpected errors, with a fake clock-free pressure. */
class ThrottlerTest {
    private final Logger logger = (Logger) LoggerFactory.getLogger("throttler-test");
    private final ListAppender<ILoggingEvent> lines = new ListAppender<>();
    private final List<Duration> slept = new ArrayList<>();
    /** Sleeps instantly in full, or is cut short once when {@code wake} is set. */
    private Duration wake;
    private final Pressure pressure = new Pressure() {
        @Override
        public Duration sleep(Duration duration) {
            slept.add(duration);
            Duration unslept = wake;
            wake = null;
            return unslept;
        }
    };

    @BeforeEach
    void capture() {
        lines.start();
        logger.addAppender(lines);
    }

    private List<String> messages() {
        return lines.list.stream().map(ILoggingEvent::getFormattedMessage).toList();
    }

    @Test
    void delaysAdvanceRepeatTheLastAndStartAfreshAfterASuccess() throws InterruptedException {
        Throttler throttler = new Throttler();
        List<Duration> delays = List.of(Duration.ofSeconds(1), Duration.ofSeconds(2));
        for (int i = 0; i < 3; i++) {
            assertThat(throttler.admits(pressure, logger)).isTrue();
            throttler.failed(new IllegalStateException("boom"), delays, pressure, logger);
        }
        throttler.succeeded();
        throttler.failed(new IllegalStateException("boom"), delays, pressure, logger);
        assertThat(messages()).filteredOn(m -> m.startsWith("Throttling for")).containsExactly(
                "Throttling for 1 seconds due to an unexpected error: java.lang.IllegalStateException: boom",
                "Throttling for 2 seconds due to an unexpected error: java.lang.IllegalStateException: boom",
                "Throttling for 2 seconds due to an unexpected error: java.lang.IllegalStateException: boom",
                "Throttling for 1 seconds due to an unexpected error: java.lang.IllegalStateException: boom");
        assertThat(messages()).filteredOn(m -> m.equals("Throttling is over. Switching back to normal operations.")).hasSize(4);
    }

    @Test
    void aNewerEventDuringThrottlingIsTakenButNotProcessedUntilItEnds() throws InterruptedException {
        Throttler throttler = new Throttler();
        wake = Duration.ofMillis(700);
        throttler.failed(new IllegalStateException("boom"), List.of(Duration.ofSeconds(1)), pressure, logger);
        assertThat(messages()).doesNotContain("Throttling is over. Switching back to normal operations.");
        assertThat(throttler.admits(pressure, logger)).as("the rest is slept before the next event").isTrue();
        assertThat(slept).hasSize(2);
        assertThat(slept.get(1)).isLessThanOrEqualTo(Duration.ofSeconds(1));
        assertThat(messages()).contains("Throttling is over. Switching back to normal operations.");
    }

    @Test
    void withoutDelaysTheErrorIsOnlyLogged() throws InterruptedException {
        Throttler throttler = new Throttler();
        throttler.failed(new IllegalStateException("boom"), List.of(), pressure, logger);
        assertThat(throttler.admits(pressure, logger)).isTrue();
        assertThat(slept).isEmpty();
        assertThat(messages()).containsExactly("Processing failed due to an unexpected error: java.lang.IllegalStateException: boom");
    }

    @Test
    void anApiErrorIsLoggedByItsRootCauseWithoutItsTrace() throws InterruptedException {
        Throttler throttler = new Throttler();
        throttler.failed(new io.fabric8.kubernetes.client.KubernetesClientException(new io.fabric8.kubernetes.api.model
                .StatusBuilder().withCode(403).withMessage("kopfexamples \"ex\" is forbidden").build()),
                List.of(Duration.ofSeconds(1)), pressure, logger);
        ILoggingEvent line = lines.list.getFirst();
        assertThat(line.getFormattedMessage())
                .isEqualTo("Throttling for 1 seconds due to an unexpected error: HTTP 403: kopfexamples \"ex\" is forbidden"
                        + " [RBAC: the operator lacks a permission; kopf4j check-rbac lists what it lacks, kopf4j manifests"
                        + " generates the rules]");
        assertThat(line.getThrowableProxy()).isNull();
    }
}
