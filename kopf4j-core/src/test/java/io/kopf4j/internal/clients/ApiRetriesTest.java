package io.kopf4j.internal.clients;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.spi.ILoggingEvent;
import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.kopf4j.internal.logging.CapturedLines;
import java.io.IOException;
import java.net.ConnectException;
import java.time.Duration;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

class ApiRetriesTest {
    private static final Duration TINY = Duration.ofMillis(1);

    private static KubernetesClientException http(int code) {
        return new KubernetesClientException(new StatusBuilder().withCode(code).withMessage("HTTP " + code).build());
    }

    /** Fails with the given error {@code failures} times, then succeeds. */
    private static int attempts(ApiRetries retries, KubernetesClientException error, int failures) {
        AtomicInteger calls = new AtomicInteger();
        retries.call("test", "https://127.0.0.1:6443", LoggerFactory.getLogger("test"), () -> {
            if (calls.incrementAndGet() <= failures) {
                throw error;
            }
            return "ok";
        });
        return calls.get();
    }

    @Test
    void connectionErrorsServerErrorsForbiddenAndTooManyRequestsAreRetried() {
        ApiRetries retries = new ApiRetries(List.of(TINY, TINY, TINY), false);
        assertThat(attempts(retries, new KubernetesClientException("refused", new IOException("refused")), 2)).isEqualTo(3);
        for (int code : new int[]{500, 503, 403, 429}) {
            assertThat(attempts(retries, http(code), 3)).as("HTTP %d", code).isEqualTo(4);
        }
    }

    @Test
    void atTheStartOnlyABusyServersAnswersAreRetried() {
        ApiRetries retries = new ApiRetries(List.of(TINY, TINY, TINY), false).busyServerOnly();
        for (int code : new int[]{429, 500, 503}) {
            assertThat(attempts(retries, http(code), 3)).as("HTTP %d", code).isEqualTo(4);
        }
        assertThatThrownBy(() -> attempts(retries, new KubernetesClientException("refused", new IOException("refused")), 1))
                .as("unreachable").hasMessage("refused");
        for (int code : new int[]{401, 403, 404}) {
            assertThatThrownBy(() -> attempts(retries, http(code), 1)).as("HTTP %d", code).hasMessageContaining("HTTP " + code);
        }
    }

    @Test
    void otherClientErrorsFailAtOnce() {
        ApiRetries retries = new ApiRetries(List.of(TINY, TINY), false);
        for (int code : new int[]{400, 404, 409, 422}) {
            assertThatThrownBy(() -> attempts(retries, http(code), 1)).isInstanceOf(KubernetesClientException.class);
        }
    }

    @Test
    void theLastFailureIsThrownWhenTheBackoffsRunOut() {
        ApiRetries retries = new ApiRetries(List.of(TINY, TINY), false);
        assertThatThrownBy(() -> attempts(retries, http(503), 3)).hasMessageContaining("503");
    }

    @Test
    void anEmptySequenceDisablesRetrying() {
        assertThatThrownBy(() -> attempts(new ApiRetries(List.of(), false), http(503), 1)).hasMessageContaining("503");
    }

    @Test
    void infiniteSequencesRetryAsLongAsNeeded() {
        Iterable<Duration> forever = () -> new Iterator<>() {
            public boolean hasNext() {
                return true;
            }

            public Duration next() {
                return TINY;
            }
        };
        assertThat(attempts(new ApiRetries(forever, false), http(500), 50)).isEqualTo(51);
    }

    @Test
    void retryAfterIsHonouredWhenLongerOrEnforced() {
        KubernetesClientException slowDown = new KubernetesClientException(new StatusBuilder().withCode(429)
                .withNewDetails().withRetryAfterSeconds(1).endDetails().build());
        long started = System.nanoTime();
        attempts(new ApiRetries(List.of(TINY), false), slowDown, 1);
        assertThat(Duration.ofNanos(System.nanoTime() - started)).isGreaterThanOrEqualTo(Duration.ofSeconds(1));
    }

    private static final String WHAT = "PATCH https://127.0.0.1:6443/apis/kopf.dev/v1/namespaces/ns/kopfexamples/ex";

    @Test
    void eachAttemptIsLoggedWithKopfsLinesTheRootCauseAndTheTraceOnlyAtDebugLevel() {
        KubernetesClientException refused = new KubernetesClientException("An error has occurred.",
                new IOException(null, new ConnectException()));
        AtomicInteger calls = new AtomicInteger();
        try (CapturedLines lines = new CapturedLines("test.retries")) {
            new ApiRetries(List.of(TINY), false).call(WHAT, "https://127.0.0.1:6443", LoggerFactory.getLogger("test.retries"), () -> {
                if (calls.incrementAndGet() == 1) {
                    throw refused;
                }
                return "ok";
            });
            assertThat(lines.events()).extracting(ILoggingEvent::getLevel, ILoggingEvent::getFormattedMessage,
                            line -> line.getThrowableProxy() != null)
                    .containsExactly(
                            tuple(Level.ERROR, "Request attempt #1/2 failed; will retry: " + WHAT
                                    + " -> Connection refused (127.0.0.1:6443)", false),
                            tuple(Level.DEBUG, "The failed request attempt #1/2:", true),
                            tuple(Level.DEBUG, "Request attempt #2/2: " + WHAT, false),
                            tuple(Level.DEBUG, "Request attempt #2/2 succeeded: " + WHAT, false));
        }
    }

    @Test
    void theLastAttemptEscalatesWithKopfsLine() {
        try (CapturedLines lines = new CapturedLines("test.retries")) {
            assertThatThrownBy(() -> new ApiRetries(List.of(), false).call(WHAT, "https://127.0.0.1:6443",
                    LoggerFactory.getLogger("test.retries"), () -> {
                        throw http(503);
                    })).isInstanceOf(KubernetesClientException.class);
            assertThat(lines.messages()).first().asString().startsWith("Request attempt #1/1 failed; escalating: " + WHAT + " -> ");
        }
    }

    @Test
    void endlessBackoffsNumberTheAttemptsWithoutATotal() {
        Iterable<Duration> forever = () -> Stream.generate(() -> TINY).iterator();
        AtomicInteger calls = new AtomicInteger();
        try (CapturedLines lines = new CapturedLines("test.retries")) {
            new ApiRetries(forever, false).call(WHAT, "https://127.0.0.1:6443", LoggerFactory.getLogger("test.retries"), () -> {
                if (calls.incrementAndGet() == 1) {
                    throw http(500);
                }
                return "ok";
            });
            assertThat(lines.messages()).first().asString().startsWith("Request attempt #1 failed; will retry: " + WHAT + " -> ");
            assertThat(lines.messages()).contains("Request attempt #2 succeeded: " + WHAT);
        }
    }

    @Test
    void aLongerRetryAfterOverridesTheBackoffWithKopfsLine() {
        KubernetesClientException slowDown = new KubernetesClientException(new StatusBuilder().withCode(429)
                .withNewDetails().withRetryAfterSeconds(1).endDetails().build());
        AtomicInteger calls = new AtomicInteger();
        try (CapturedLines lines = new CapturedLines("test.retries")) {
            new ApiRetries(List.of(Duration.ofMillis(500)), false).call(WHAT, "https://127.0.0.1:6443",
                    LoggerFactory.getLogger("test.retries"), () -> {
                        if (calls.incrementAndGet() == 1) {
                            throw slowDown;
                        }
                        return "ok";
                    });
            assertThat(lines.messages()).contains("Overriding the backoff 0.5s with the retry-after 1s from the server: " + WHAT);
        }
    }
}
