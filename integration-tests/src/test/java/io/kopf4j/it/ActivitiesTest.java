package io.kopf4j.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.kopf4j.Memo;
import io.kopf4j.On;
import io.kopf4j.Operator;
import io.kopf4j.OperatorException;
import io.kopf4j.OperatorSettings;
import io.kopf4j.PermanentError;
import io.kopf4j.TemporaryError;
import io.kopf4j.testing.LocalCluster;
import io.kopf4j.testing.LocalClusterExtension;
import io.kopf4j.testing.TemporaryNamespace;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Startup handlers run first and may change the settings; cleanup handlers run on a graceful stop. */
@ExtendWith(LocalClusterExtension.class)
class ActivitiesTest {
    private static final Duration WAIT = Duration.ofSeconds(30);
    static final AtomicInteger STARTUPS = new AtomicInteger();
    static final AtomicInteger CLEANUPS = new AtomicInteger();

    public static class Handlers {
        @On.Startup
        public void configure(OperatorSettings settings, Memo memo, int retry) {
            STARTUPS.incrementAndGet();
            if (retry == 0) {
                throw new TemporaryError("not yet", Duration.ofMillis(200));
            }
            settings.persistence.finalizer = "example.com/custom-finalizer";
            memo.put("configured", true);
        }

        @On.Cleanup
        public void cleanup(Memo memo) {
            if (Boolean.TRUE.equals(memo.get("configured"))) {
                CLEANUPS.incrementAndGet();
            }
        }

        @On.Delete("kopfexamples")
        public void delete() {
        }
    }

    public static class Broken {
        @On.Startup
        public void refuse() {
            throw new PermanentError("missing configuration");
        }

        @On.Create("kopfexamples")
        public void create() {
        }
    }

    @Test
    void startupConfiguresTheOperatorAndCleanupRunsAtTheEnd(LocalCluster cluster, TemporaryNamespace namespace)
            throws InterruptedException {
        OperatorFixture fixture = new OperatorFixture(cluster, namespace);
        KopfExamples examples = fixture.examples();
        try (Operator operator = fixture.start(fixture.operator().handlers(Handlers.class))) {
            assertThat(STARTUPS).as("retried once, then done").hasValue(2);
            examples.create("ex", Map.of("a", 1));
            await().atMost(WAIT).untilAsserted(() -> assertThat(examples.finalizers("ex")).contains("example.com/custom-finalizer"));
            assertThat(CLEANUPS).hasValue(0);
        }
        assertThat(CLEANUPS).hasValue(1);
    }

    @Test
    void aStartupHandlerFailingPermanentlyPreventsTheStart(LocalCluster cluster, TemporaryNamespace namespace) {
        OperatorFixture fixture = new OperatorFixture(cluster, namespace);
        try (Operator operator = fixture.operator().handlers(Broken.class).build()) {
            assertThatThrownBy(operator::start).isInstanceOf(OperatorException.class)
                    .hasMessage("startup handler 'refuse' failed permanently: missing configuration");
        }
    }
}
