package io.kopf4j.it;

import static io.kopf4j.it.KopfExamples.count;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kopf4j.On;
import io.kopf4j.OperatorSettings;
import io.kopf4j.envtest.LocalCluster;
import io.kopf4j.envtest.TemporaryNamespace;
import io.kopf4j.testing.KopfRunner;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The API server frozen (SIGSTOP) for longer than the watch timeouts while objects are being
 * created and changed: its connections stay open and answer nothing, so the watch stalls without
 * an error. The operator closes it at {@code settings.watching.clientTimeout} and tries again
 * (that attempt stalls as well, and is closed again), abandons its stalled PATCHes at
 * {@code settings.networking.requestTimeout} and retries them; once the server goes on (SIGCONT),
 * everything is handled, each handler once per object. Uses a cluster of its own.
 */
class ApiFreezeTest {
    private static final int BEFORE = 20;
    private static final int DURING = 30;
    private static final Duration WAIT = Duration.ofSeconds(120);
    private static final Logger LOG = LoggerFactory.getLogger(ApiFreezeTest.class);

    /** Watches that a healthy server ends every 2 s, and that the operator gives up after 5 s of a stalled server. */
    public static class ShortTimeouts {
        static final int SERVER_TIMEOUT = 2;
        static final int CLIENT_TIMEOUT = 5;

        @On.Startup
        public void configure(OperatorSettings settings) {
            settings.watching.serverTimeout = Duration.ofSeconds(SERVER_TIMEOUT);
            settings.watching.clientTimeout = Duration.ofSeconds(CLIENT_TIMEOUT);
            settings.networking.requestTimeout = Duration.ofSeconds(CLIENT_TIMEOUT);
        }
    }

    @Test
    void aStalledWatchTimesOutAsSetAndEveryObjectIsHandledOnceAfterTheFreeze() throws Exception {
        try (LocalCluster cluster = LocalCluster.start();
             TemporaryNamespace namespace = new TemporaryNamespace(cluster.client(), "freeze")) {
            OperatorFixture fixture = new OperatorFixture(cluster, namespace);
            FaultLoad load = new FaultLoad(fixture);
            String watching = "Watching kopfexamples.v1.kopf.dev in " + namespace.name() + ": ";
            String serverEnded = watching + "the server ended the stream; watching again from ";
            String clientTimedOut = watching + "the client-side timeout of " + ShortTimeouts.CLIENT_TIMEOUT + " s passed; resuming";
            try (KopfRunner runner = fixture.run(cluster.kubeconfig(), List.of(FaultLoad.Handlers.class, ShortTimeouts.class))) {
                List<String> before = FaultLoad.names("before", BEFORE);
                before.forEach(load::create);
                load.awaitHandled(WAIT);
                // Three watches ended by the healthy server: 6 s and more of watching, none of it given up by the client.
                await().atMost(WAIT).until(() -> count(runner.output(), serverEnded) >= 3);
                assertThat(runner.output()).doesNotContain(clientTimedOut);

                FaultLoad.FaultTimes times = load.changeThrough(load.createdAndUpdated(FaultLoad.names("during", DURING), before), 10,
                        () -> {
                            cluster.freezeApiServer();
                            // The stalled watch given up, and the attempt after it too: twice the client-side timeout and more.
                            await().atMost(WAIT).until(() -> count(runner.output(), clientTimedOut) >= 2);
                        },
                        cluster::thawApiServer, WAIT);

                String output = runner.output();
                load.assertHandledOnce(output);
                LOG.info("API server frozen: {} objects, {} of them created and {} updated around the freeze ({} of those changes "
                                + "before it); the stalled watch given up {} time(s) at the client-side timeout of {} s; {} PATCH "
                                + "attempt(s) abandoned at the request timeout; {} handler(s) re-ran; frozen {} s, all handled {} s "
                                + "after the thaw",
                        BEFORE + DURING, DURING, DURING / 2, times.changesBefore(), count(output, clientTimedOut),
                        ShortTimeouts.CLIENT_TIMEOUT, count(output, "failed; will retry: PATCH "),
                        FaultLoad.reruns(output, "create", "update"), times.lasted(), times.recovered());
            }
        }
    }
}
