package io.kopf4j.it;

import static io.kopf4j.it.KopfExamples.count;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.kopf4j.On;
import io.kopf4j.Spec;
import io.kopf4j.envtest.LocalCluster;
import io.kopf4j.envtest.TemporaryNamespace;
import io.kopf4j.testing.KopfRunner;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;

/**
 * The API server goes away for 20 s while objects are being created and handled: afterwards every
 * object is handled exactly once, with no restart of the operator. Uses a cluster of its own, as
 * it stops the API server.
 */
class ApiOutageTest {
    private static final Duration WAIT = Duration.ofSeconds(90);
    private static final Duration OUTAGE = Duration.ofSeconds(20);

    public static class Handlers {
        @On.Create("kopfexamples")
        public String create(Spec spec, String name, Logger logger) throws InterruptedException {
            logger.info("Working on {}", name);
            if (Boolean.TRUE.equals(spec.get("slow"))) {
                Thread.sleep(3000);   // the API server goes down while this handler works
            }
            return "created";
        }
    }

    @Test
    void everyObjectIsHandledExactlyOnceAcrossAnOutage() {
        try (LocalCluster cluster = LocalCluster.start();
             TemporaryNamespace namespace = new TemporaryNamespace(cluster.client(), "outage")) {
            OperatorFixture fixture = new OperatorFixture(cluster, namespace);
            KopfExamples examples = fixture.examples();
            try (KopfRunner runner = fixture.run(Handlers.class)) {
                for (int i = 0; i < 3; i++) {
                    examples.create("before-" + i, Map.of("i", i));
                }
                await().atMost(WAIT).untilAsserted(() -> {
                    for (int i = 0; i < 3; i++) {
                        assertThat(examples.status("before-" + i)).containsEntry("create", "created");
                    }
                });
                for (int i = 0; i < 3; i++) {
                    examples.create("midway-" + i, Map.of("slow", true));
                }
                await().atMost(WAIT).until(() -> count(runner.output(), "Working on midway-") == 3);

                // Any other write moves the cluster's revision past the operator's last kopfexamples
                // event: once the restarted server's watch cache is ready, it starts there, and resuming
                // the operator's watch ends in 410 Gone and a re-list; before that, the server may serve
                // the watch from etcd, which still has the version. Neither loses an event (below).
                cluster.client().configMaps().inNamespace(namespace.name()).resource(new ConfigMapBuilder()
                        .withNewMetadata().withName("revision-bump").endMetadata().build()).create();
                cluster.stopApiServer();
                await().during(OUTAGE).atMost(OUTAGE.plusSeconds(10)).until(runner::isRunning);
                cluster.startApiServer();

                for (int i = 0; i < 3; i++) {
                    examples.create("after-" + i, Map.of("i", i));
                }
                List<String> names = List.of("before-0", "before-1", "before-2", "midway-0", "midway-1", "midway-2",
                        "after-0", "after-1", "after-2");
                await().atMost(WAIT).untilAsserted(() -> {
                    for (String name : names) {
                        assertThat(examples.status(name)).as(name).containsEntry("create", "created");
                        assertThat(examples.annotations(name)).as(name).containsKey("kopf.zalando.org/last-handled-configuration");
                    }
                });
                for (String name : names) {
                    assertThat(count(runner.output(), fixture.about(name) + "Handler 'create' succeeded."))
                            .as("%s handled once", name).isEqualTo(1);
                }
                // During the outage, the watch was tried again (from its version), not given up.
                assertThat(runner.output()).contains("Watching kopfexamples.v1.kopf.dev in " + namespace.name()
                        + " failed, retrying in 1 s: Connection refused");
            }
        }
    }
}
