package io.kopf4j.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.kopf4j.Activity;
import io.kopf4j.ActivityError;
import io.kopf4j.ConnectionInfo;
import io.kopf4j.ErrorsMode;
import io.kopf4j.Handler;
import io.kopf4j.Memo;
import io.kopf4j.On;
import io.kopf4j.Operator;
import io.kopf4j.OperatorSettings;
import io.kopf4j.PermanentError;
import io.kopf4j.TemporaryError;
import io.kopf4j.envtest.LocalCluster;
import io.kopf4j.envtest.LocalClusterExtension;
import io.kopf4j.envtest.TemporaryNamespace;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Startup handlers run first and may change the settings; cleanup handlers run on a graceful stop;
 * activities have Kopf's options, and a failed handler fails the activity after the others finished.
 */
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

    static final AtomicInteger FLAKY_STARTS = new AtomicInteger();
    static final AtomicInteger LOGINS = new AtomicInteger();

    public static class BrokenAmongOthers {
        @On.Startup
        public void refuse() {
            throw new PermanentError("missing configuration");
        }

        @On.Startup(backoff = 0.1)
        public void flaky(int retry) {
            FLAKY_STARTS.incrementAndGet();
            if (retry == 0) {
                throw new IllegalStateException("not yet");
            }
        }

        @On.Create("kopfexamples")
        public void create() {
        }
    }

    /** Kopf's example 13: a login handler whose failure is not retried. */
    public static class StrictLogin {
        @On.Login(errors = ErrorsMode.PERMANENT)
        public ConnectionInfo login() {
            LOGINS.incrementAndGet();
            throw new IllegalStateException("the token service is down");
        }

        @On.Create("kopfexamples")
        public void create() {
        }
    }

    @Test
    void startupConfiguresTheOperatorAndCleanupRunsAtTheEnd(LocalCluster cluster, TemporaryNamespace namespace) {
        KopfExamples examples = new KopfExamples(cluster, namespace.name());
        try (Operator operator = Operator.builder().handlers(Handlers.class)
                .namespaces(namespace.name()).kubeconfig(cluster.kubeconfig()).build()) {
            operator.start();
            assertThat(STARTUPS).as("retried once, then done").hasValue(2);
            examples.create("ex", Map.of("a", 1));
            await().atMost(WAIT).untilAsserted(() -> assertThat(examples.finalizers("ex")).contains("example.com/custom-finalizer"));
            assertThat(CLEANUPS).hasValue(0);
        }
        assertThat(CLEANUPS).hasValue(1);
    }

    @Test
    void aStartupHandlerFailingPermanentlyPreventsTheStart(LocalCluster cluster, TemporaryNamespace namespace) {
        try (Operator operator = Operator.builder().handlers(Broken.class)
                .namespaces(namespace.name()).kubeconfig(cluster.kubeconfig()).build()) {
            assertThatThrownBy(operator::start).isInstanceOf(ActivityError.class)
                    .hasMessage("One or more startup handlers failed: 'refuse': missing configuration");
        }
    }

    @Test
    void theOtherStartupHandlersFinishBeforeTheStartFails(LocalCluster cluster, TemporaryNamespace namespace) {
        try (CapturedLogs logs = new CapturedLogs("kopf.activities.startup");
             Operator operator = Operator.builder().handlers(BrokenAmongOthers.class)
                     .namespaces(namespace.name()).kubeconfig(cluster.kubeconfig()).build()) {
            assertThatThrownBy(operator::start).isInstanceOf(ActivityError.class)
                    .hasMessage("One or more startup handlers failed: 'refuse': missing configuration");
            assertThat(FLAKY_STARTS).as("retried to success although another one had failed").hasValue(2);
            assertThat(logs.contains("Activity 'refuse' failed permanently: missing configuration")).isTrue();
            assertThat(logs.contains("Activity 'flaky' failed with an exception and will try again in 0.1 seconds: not yet"))
                    .isTrue();
        }
    }

    @Test
    void aLoginHandlerWithPermanentErrorsFailsTheStartAtTheFirstFailure(LocalCluster cluster, TemporaryNamespace namespace) {
        try (Operator operator = Operator.builder().handlers(StrictLogin.class)
                .namespaces(namespace.name()).kubeconfig(cluster.kubeconfig()).build()) {
            assertThatThrownBy(operator::start).isInstanceOf(ActivityError.class)
                    .hasMessage("One or more authentication handlers failed: 'login': the token service is down");
            assertThat(LOGINS).hasValue(1);
        }
    }

    @Test
    void anActivityWithIgnoredErrorsDoesNotPreventTheStart(LocalCluster cluster, TemporaryNamespace namespace) {
        KopfExamples examples = new KopfExamples(cluster, namespace.name());
        try (Operator operator = Operator.builder()
                .activity(Activity.startup("optional").errors(ErrorsMode.IGNORED).handle(context -> {
                    throw new IllegalStateException("no metrics service");
                }))
                .handler(Handler.create("kopfexamples").id("create").handle(context -> "created"))
                .namespaces(namespace.name()).kubeconfig(cluster.kubeconfig()).build()) {
            operator.start();
            examples.create("ex", Map.of());
            await().atMost(WAIT).untilAsserted(() -> assertThat(examples.status("ex")).containsEntry("create", "created"));
        }
    }
}
