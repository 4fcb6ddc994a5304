package io.kopf4j.internal.engines.activities;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kopf4j.ActivityError;
import io.kopf4j.ActivityFn;
import io.kopf4j.ErrorsMode;
import io.kopf4j.LoginError;
import io.kopf4j.Memo;
import io.kopf4j.On;
import io.kopf4j.OperatorSettings;
import io.kopf4j.PermanentError;
import io.kopf4j.TemporaryError;
import io.kopf4j.internal.intents.ActivityHandler;
import io.kopf4j.internal.intents.HandlerRegistry;
import io.kopf4j.internal.intents.HandlerScanner;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** Activities run with the same rules as all handlers, each handler on its own schedule, as Kopf's run_activity. */
class ActivitiesTest {
    private final OperatorSettings settings = new OperatorSettings();

    private static ActivityHandler startup(String id, ErrorsMode errors, Duration timeout, Integer retries,
                                           ActivityFn function) {
        return new ActivityHandler(ActivityHandler.STARTUP, id, errors, timeout, retries, Duration.ofMillis(10), null,
                function, "test");
    }

    private static ActivityFn failingUntil(int attempt, Duration delay, AtomicInteger calls, Object result) {
        return context -> {
            calls.incrementAndGet();
            if (context.retry() < attempt) {
                throw new TemporaryError("not yet", delay);
            }
            return result;
        };
    }

    @Test
    void aPermanentFailureLetsTheOthersFinishThenFailsTheActivity() {
        AtomicInteger slow = new AtomicInteger();
        List<ActivityHandler> handlers = List.of(
                startup("broken", null, null, null, context -> {
                    throw new PermanentError("missing configuration");
                }),
                startup("slow", null, null, null, failingUntil(1, Duration.ofMillis(50), slow, "ok")));

        assertThatThrownBy(() -> Activities.run(ActivityHandler.STARTUP, handlers, settings, new Memo()))
                .isInstanceOfSatisfying(ActivityError.class, error -> {
                    assertThat(error).hasMessage("One or more startup handlers failed: 'broken': missing configuration")
                            .hasCauseInstanceOf(PermanentError.class);
                    assertThat(error.failures()).as("only the failed handler").containsOnlyKeys("broken");
                });
        assertThat(slow).as("retried to success after the other failed").hasValue(2);
    }

    @Test
    void onlyTheHandlersThatAreDueAreCalledAgain() throws InterruptedException {
        List<Long> patientCalls = new CopyOnWriteArrayList<>();
        AtomicInteger eager = new AtomicInteger();
        Map<String, Object> results = Activities.run(ActivityHandler.STARTUP, List.of(
                startup("patient", null, null, null, context -> {
                    patientCalls.add(System.nanoTime());
                    if (context.retry() == 0) {
                        throw new TemporaryError("not yet", Duration.ofMillis(400));
                    }
                    return "p";
                }),
                startup("eager", null, null, null, failingUntil(3, Duration.ofMillis(20), eager, "e"))),
                settings, new Memo());

        assertThat(results).containsExactlyInAnyOrderEntriesOf(Map.of("patient", "p", "eager", "e"));
        assertThat(eager).hasValue(4);
        assertThat(patientCalls).hasSize(2);
        assertThat(Duration.ofNanos(patientCalls.get(1) - patientCalls.get(0)))
                .as("called again only when due, not with the other's retries").isGreaterThanOrEqualTo(Duration.ofMillis(400));
    }

    @Test
    void retriesAreCountedPerHandlerAndGiveUpAsInKopf() {
        AtomicInteger doomed = new AtomicInteger();
        List<ActivityHandler> handlers = List.of(startup("doomed", null, null, 2, context -> {
            doomed.incrementAndGet();
            throw new IllegalStateException("nope");
        }));

        assertThatThrownBy(() -> Activities.run(ActivityHandler.STARTUP, handlers, settings, new Memo()))
                .isInstanceOf(ActivityError.class)
                .hasMessage("One or more startup handlers failed: 'doomed': Activity 'doomed' failed with an exception"
                        + " and will stop now (it would exceed 2 retries on the next attempt): nope");
        assertThat(doomed).hasValue(2);
    }

    @Test
    void aTimeoutGivesUpWhenTheNextAttemptWouldBeTooLate() {
        List<ActivityHandler> handlers = List.of(startup("late", null, Duration.ofMillis(50), null, context -> {
            throw new TemporaryError("wait", Duration.ofSeconds(1));
        }));

        assertThatThrownBy(() -> Activities.run(ActivityHandler.STARTUP, handlers, settings, new Memo()))
                .hasMessage("One or more startup handlers failed: 'late': Activity 'late' failed temporarily but will"
                        + " time out after 0.05 seconds: wait");
    }

    @Test
    void anIgnoredFailureCountsAsDone() throws InterruptedException {
        Map<String, Object> results = Activities.run(ActivityHandler.STARTUP, List.of(
                startup("optional", ErrorsMode.IGNORED, null, null, context -> {
                    throw new IllegalStateException("no such service");
                }),
                startup("needed", null, null, null, context -> "configured")), settings, new Memo());

        assertThat(results).containsExactlyEntriesOf(Map.of("needed", "configured"));
    }

    private static ActivityHandler login(ErrorsMode errors, ActivityFn function) {
        return new ActivityHandler(ActivityHandler.AUTHENTICATION, "login", errors, null, null, Duration.ofMillis(10), null,
                function, "test");
    }

    @Test
    void aLoginErrorIsRetriedAsAnyExceptionAsKopfDoes() throws InterruptedException {
        AtomicInteger calls = new AtomicInteger();
        List<ActivityHandler> handlers = List.of(login(null, context -> {
            if (calls.incrementAndGet() <= 2) {
                throw new LoginError("the token service is down");
            }
            return "credentials";
        }));

        assertThat(Activities.run(ActivityHandler.AUTHENTICATION, handlers, settings, new Memo()))
                .containsExactlyEntriesOf(Map.of("login", "credentials"));
        assertThat(calls).as("two failures retried after the backoff, then the success").hasValue(3);
    }

    @Test
    void aLoginErrorWithErrorsPermanentFailsTheActivityWithItAsTheCause() {
        AtomicInteger calls = new AtomicInteger();
        LoginError broken = new LoginError("invalid kubeconfig");
        List<ActivityHandler> handlers = List.of(login(ErrorsMode.PERMANENT, context -> {
            calls.incrementAndGet();
            throw broken;
        }));

        assertThatThrownBy(() -> Activities.run(ActivityHandler.AUTHENTICATION, handlers, settings, new Memo()))
                .isInstanceOf(ActivityError.class).hasMessage("One or more authentication handlers failed: 'login': invalid kubeconfig")
                .cause().isSameAs(broken);
        assertThat(calls).hasValue(1);
    }

    public static class KopfExample13 {
        static final AtomicInteger CALLS = new AtomicInteger();

        @On.Login(errors = ErrorsMode.PERMANENT)
        public Object login() {
            CALLS.incrementAndGet();
            throw new IllegalStateException("no token");
        }

        @On.Startup(id = "tune", param = "fast", retries = 3, backoff = 0.5, timeout = 60)
        public Object tune(Object param) {
            return param;
        }
    }

    @Test
    void annotatedActivitiesHaveKopfsOptions() throws InterruptedException {
        HandlerRegistry registry = new HandlerRegistry();
        HandlerScanner.scan(KopfExample13.class, registry);

        assertThatThrownBy(() -> Activities.run(ActivityHandler.AUTHENTICATION,
                registry.activities(ActivityHandler.AUTHENTICATION), settings, new Memo()))
                .hasMessage("One or more authentication handlers failed: 'login': no token");
        assertThat(KopfExample13.CALLS).as("errors=PERMANENT: not retried").hasValue(1);

        ActivityHandler tune = registry.activities(ActivityHandler.STARTUP).getFirst();
        assertThat(tune).extracting(ActivityHandler::retries, ActivityHandler::backoff, ActivityHandler::timeout)
                .containsExactly(3, Duration.ofMillis(500), Duration.ofSeconds(60));
        assertThat(Activities.run(ActivityHandler.STARTUP, List.of(tune), settings, new Memo()))
                .containsExactlyEntriesOf(Map.of("tune", "fast"));
    }

    @Test
    void aStartupHandlerAskingForTheClientFailsForGoodNamingItself() {
        AtomicInteger calls = new AtomicInteger();
        List<ActivityHandler> handlers = List.of(startup("children", null, null, null, context -> {
            calls.incrementAndGet();
            return context.client();
        }));

        assertThatThrownBy(() -> Activities.run(ActivityHandler.STARTUP, handlers, settings, new Memo()))
                .isInstanceOf(ActivityError.class)
                .hasMessageContaining("The startup handler 'children' asks for the Kubernetes client before the operator"
                        + " has logged in")
                .hasCauseInstanceOf(PermanentError.class);
        assertThat(calls).as("not retried: the login comes only after the startup").hasValue(1);
    }

    public static class StartupWithClient {
        @On.Startup
        public void prepare(io.fabric8.kubernetes.client.KubernetesClient client) {
        }
    }

    @Test
    void anAnnotatedStartupHandlerDeclaringTheClientFailsAtRegistration() {
        assertThatThrownBy(() -> HandlerScanner.scan(StartupWithClient.class, new HandlerRegistry()))
                .isInstanceOf(io.kopf4j.InvalidHandlerException.class)
                .hasMessageStartingWith("The startup handler StartupWithClient.prepare(KubernetesClient) asks for the"
                        + " Kubernetes client before the operator has logged in");
    }
}
