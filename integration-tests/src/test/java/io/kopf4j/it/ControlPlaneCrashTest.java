package io.kopf4j.it;

import static io.kopf4j.it.KopfExamples.count;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kopf4j.envtest.LocalCluster;
import io.kopf4j.envtest.TemporaryNamespace;
import io.kopf4j.testing.KopfRunner;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * etcd and the API server killed together (SIGKILL), as a crash of the control plane's machine,
 * and restarted on their data 5 s later, while objects are being created and changed: the
 * operator, not restarted, retries its requests and its watches through the outage, and the
 * restarted API server (its watch cache new) serves the watches again from their versions or
 * makes them list again with 410 Gone. Every object is handled at its latest state, each handler
 * once per object. Uses a cluster of its own.
 */
class ControlPlaneCrashTest {
    private static final int BEFORE = 20;
    private static final int DURING = 40;
    private static final Duration DOWN = Duration.ofSeconds(5);
    private static final Duration WAIT = Duration.ofSeconds(120);
    private static final Logger LOG = LoggerFactory.getLogger(ControlPlaneCrashTest.class);

    @Test
    void everyObjectIsHandledOnceAcrossAKilledAndRestartedControlPlane() throws Exception {
        try (LocalCluster cluster = LocalCluster.start();
             TemporaryNamespace namespace = new TemporaryNamespace(cluster.client(), "crash")) {
            OperatorFixture fixture = new OperatorFixture(cluster, namespace);
            FaultLoad load = new FaultLoad(fixture);
            try (KopfRunner runner = fixture.run(FaultLoad.Handlers.class)) {
                List<String> before = FaultLoad.names("before", BEFORE);
                before.forEach(load::create);
                load.awaitHandled(WAIT);

                FaultLoad.FaultTimes times = load.changeThrough(load.createdAndUpdated(FaultLoad.names("during", DURING), before), 10,
                        () -> {
                            cluster.killControlPlane();
                            await().during(DOWN).atMost(DOWN.plusSeconds(10)).until(runner::isRunning);
                        },
                        cluster::restartControlPlane, WAIT);

                String output = runner.output();
                load.assertHandledOnce(output);
                String watching = "Watching kopfexamples.v1.kopf.dev in " + namespace.name();
                assertThat(output).as("the watch tried again during the outage").contains(watching + " failed, retrying in 1 s: Connection refused");
                LOG.info("Control plane killed: {} objects, {} of them created and {} updated while it was killed, down and restarted; "
                                + "{} of those changes made before the kill; {} handler(s) re-ran; the watch failed {} time(s) and "
                                + "re-listed {} time(s) after 410 Gone; {} s from the kill to the restart, all handled {} s after it",
                        BEFORE + DURING, DURING, DURING / 2, times.changesBefore(), FaultLoad.reruns(output, "create", "update"),
                        count(output, watching + " failed, retrying in "),
                        count(output, "Restarting the watch-stream for kopfexamples.v1.kopf.dev in '" + namespace.name() + "'."),
                        times.lasted(), times.recovered());
            }
        }
    }
}
