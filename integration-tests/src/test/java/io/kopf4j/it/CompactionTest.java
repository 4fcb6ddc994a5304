package io.kopf4j.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kopf4j.envtest.LocalCluster;
import io.kopf4j.envtest.TemporaryNamespace;
import io.kopf4j.testing.KopfRunner;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Objects created, changed and deleted while the operator is away, and etcd's history compacted
 * past them. First the operator runs on but is cut off from the API server (a proxy drops its
 * connections): back, its watch resumes from a version that etcd no longer has, gets 410 Gone, and
 * lists again. Then the operator is stopped, and a new one starts from the state stored on the
 * objects. Each time, exactly the changes made meanwhile are handled, each once.
 *
 * <p>The API server runs without its watch cache: every watch is served from etcd, so that the
 * compaction makes the resumed watch fail with 410 Gone at once, as the watch cache does only once
 * its window (minutes of events) has moved past the version.
 */
class CompactionTest {
    private static final int OBJECTS = 30;
    private static final Duration WAIT = Duration.ofSeconds(120);
    private static final Logger LOG = LoggerFactory.getLogger(CompactionTest.class);

    @Test
    void exactlyTheChangesMadeMeanwhileAreHandledOnceAfter410GoneAndAfterARestart() throws Exception {
        try (LocalCluster cluster = LocalCluster.start(List.of("--watch-cache=false"));
             TemporaryNamespace namespace = new TemporaryNamespace(cluster.client(), "compaction");
             FaultyApiProxy proxy = FaultyApiProxy.start(cluster)) {
            OperatorFixture fixture = new OperatorFixture(cluster, namespace);
            FaultLoad load = new FaultLoad(fixture);
            String watching = "Watching kopfexamples.v1.kopf.dev in " + namespace.name();
            List<String> old = FaultLoad.names("old", OBJECTS);

            long cutOff;
            long handledAfterGone;
            try (KopfRunner runner = fixture.run(proxy.kubeconfig(), List.of(FaultLoad.Handlers.class))) {
                old.forEach(load::create);
                load.awaitHandled(WAIT);

                proxy.cut();
                cutOff = System.nanoTime();
                await().atMost(WAIT).until(() -> runner.output().contains(watching + " failed, retrying in 1 s: Connection refused"));
                List<String> created = FaultLoad.names("new", 10);
                created.forEach(load::create);
                old.subList(0, 10).forEach(load::update);
                old.subList(10, 15).forEach(load::delete);
                long revision = cluster.compactEtcd();
                proxy.restore();
                load.awaitHandled(WAIT);
                handledAfterGone = System.nanoTime();

                String output = runner.output();
                assertThat(output).as("the watch resumed from a compacted version: 410 Gone, listed again")
                        .contains("Restarting the watch-stream for kopfexamples.v1.kopf.dev in '" + namespace.name() + "'.");
                FaultLoad.assertRanOnceFor(output, "create", union(old, created));
                FaultLoad.assertRanOnceFor(output, "update", old.subList(0, 10));
                FaultLoad.assertRanOnceFor(output, "delete", old.subList(10, 15));
                LOG.info("Compacted (revision {}) while the operator was cut off for {} s: 10 created, 10 updated, 5 deleted "
                        + "meanwhile, each handled once after 410 Gone; {} handler(s) re-ran", revision,
                        FaultLoad.seconds(cutOff, handledAfterGone), FaultLoad.reruns(output, "create", "update", "delete"));
            }

            List<String> created = FaultLoad.names("later", 10);
            created.forEach(load::create);
            old.subList(15, 25).forEach(load::update);
            old.subList(25, 30).forEach(load::delete);
            long revision = cluster.compactEtcd();
            long restarted = System.nanoTime();
            try (KopfRunner runner = fixture.run(proxy.kubeconfig(), List.of(FaultLoad.Handlers.class))) {
                load.awaitHandled(WAIT);
                long handled = System.nanoTime();
                String output = runner.output();
                FaultLoad.assertRanOnceFor(output, "create", created);
                FaultLoad.assertRanOnceFor(output, "update", old.subList(15, 25));
                FaultLoad.assertRanOnceFor(output, "delete", old.subList(25, 30));
                LOG.info("Compacted (revision {}) while the operator was stopped: 10 created, 10 updated, 5 deleted meanwhile, "
                                + "each handled once by the next operator, {} s after its start; {} handler(s) re-ran", revision,
                        FaultLoad.seconds(restarted, handled), FaultLoad.reruns(output, "create", "update", "delete"));
            }
        }
    }

    private static List<String> union(List<String> first, List<String> second) {
        return Stream.concat(first.stream(), second.stream()).toList();
    }
}
