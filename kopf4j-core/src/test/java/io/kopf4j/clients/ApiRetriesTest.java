package io.kopf4j.clients;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.io.IOException;
import java.time.Duration;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
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
        retries.call("test", LoggerFactory.getLogger("test"), () -> {
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
}
