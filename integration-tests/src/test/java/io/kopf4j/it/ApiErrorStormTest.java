package io.kopf4j.it;

import static io.kopf4j.it.FaultyApiProxy.Fault.INTERNAL_ERROR;
import static io.kopf4j.it.FaultyApiProxy.Fault.SERVICE_UNAVAILABLE;
import static io.kopf4j.it.FaultyApiProxy.Fault.TOO_MANY_REQUESTS;
import static io.kopf4j.it.KopfExamples.count;
import static org.assertj.core.api.Assertions.assertThat;

import io.kopf4j.On;
import io.kopf4j.OperatorSettings;
import io.kopf4j.envtest.LocalCluster;
import io.kopf4j.envtest.TemporaryNamespace;
import io.kopf4j.testing.KopfRunner;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A storm of API errors: a fifth of the operator's requests are answered, by a proxy in front of
 * the API server, with 429 Too Many Requests (a text and a Retry-After header, as API Priority and
 * Fairness answers), 500 or 503, from before the operator starts until every object is handled.
 * The operator lists the existing objects page by page through it, retrying each page as Kopf
 * retries requests (a listing that started over at every failure would never end), and handles
 * them and the objects created and changed meanwhile, waiting at least as long as a Retry-After
 * says. Every object is handled at its latest state, each handler once per object. Uses a
 * cluster of its own.
 */
class ApiErrorStormTest {
    private static final int EXISTING = 30;
    private static final int CREATED = 30;
    private static final double SHARE = 0.2;
    private static final Duration WAIT = Duration.ofSeconds(120);
    /** Kopf's line of a request to be retried, before the method and URL. */
    private static final String RETRIED = "Request attempt #\\d+/9 failed; will retry: ";
    private static final Logger LOG = LoggerFactory.getLogger(ApiErrorStormTest.class);

    /** Pages of 2 objects: the first listing takes 15 requests, each of which may fail. */
    public static class SmallPages {
        @On.Startup
        public void configure(OperatorSettings settings) {
            settings.watching.listPageSize = 2;
        }
    }

    @Test
    void everyObjectIsHandledOnceThroughAStormOf429sAnd5xx() throws Exception {
        try (LocalCluster cluster = LocalCluster.start();
             TemporaryNamespace namespace = new TemporaryNamespace(cluster.client(), "storm");
             FaultyApiProxy proxy = FaultyApiProxy.start(cluster)) {
            OperatorFixture fixture = new OperatorFixture(cluster, namespace);
            FaultLoad load = new FaultLoad(fixture);
            List<String> existing = FaultLoad.names("existing", EXISTING);
            existing.forEach(load::create);
            List<Runnable> changes = load.createdAndUpdated(FaultLoad.names("created", CREATED), existing);

            long began = System.nanoTime();
            proxy.inject(SHARE, TOO_MANY_REQUESTS, INTERNAL_ERROR, SERVICE_UNAVAILABLE);
            try (KopfRunner runner = fixture.run(proxy.kubeconfig(), List.of(FaultLoad.Handlers.class, SmallPages.class))) {
                assertThat(runner.exception()).as("the operator's start").isNull();
                assertThat(runner.awaitListed(Duration.ZERO)).as("listed in the storm").isTrue();
                long listed = System.nanoTime();
                load.inBackground(changes).get(WAIT.toSeconds(), TimeUnit.SECONDS);
                load.awaitHandled(WAIT);
                long handled = System.nanoTime();
                proxy.heal();

                String output = runner.output();
                load.assertHandledOnce(output);
                // Retried as Kopf retries, a 429 not before its Retry-After (2 s), even where the own backoff is 1 s.
                assertThat(output).containsPattern(RETRIED + "PATCH \\S+ -> HTTP 429: Too many requests, please try again later\\.")
                        .contains("Overriding the backoff 1s with the retry-after 2s from the server: PATCH ")
                        .containsPattern(RETRIED + "PATCH \\S+ -> HTTP 500: Internal error occurred: injected by the test")
                        .containsPattern(RETRIED + "PATCH \\S+ -> HTTP 503: the server is currently unable to handle the request");
                LOG.info("Error storm: {} objects listed in pages of 2, {} created and {} updated meanwhile; the proxy answered {} requests "
                                + "with 429, {} with 500, {} with 503, and forwarded {}; retried: {} discovery request(s), {} listing "
                                + "page(s), {} PATCH(es); {} watch(es) failed; {} handler(s) re-ran; listed in {} s, all handled {} s after",
                        EXISTING, CREATED, CREATED / 2, proxy.injected(429), proxy.injected(500), proxy.injected(503),
                        proxy.forwarded(), matches(output, RETRIED + "GET \\S+/apis?(/[^?\\s]*)? -> "),
                        matches(output, RETRIED + "GET \\S+/kopfexamples\\?limit=2\\S* -> "), matches(output, RETRIED + "PATCH "),
                        count(output, "Watching kopfexamples.v1.kopf.dev in " + namespace.name() + " failed"),
                        FaultLoad.reruns(output, "create", "update"), FaultLoad.seconds(began, listed), FaultLoad.seconds(listed, handled));
            }
        }
    }

    private static long matches(String output, String regex) {
        return Pattern.compile(regex).matcher(output).results().count();
    }
}
