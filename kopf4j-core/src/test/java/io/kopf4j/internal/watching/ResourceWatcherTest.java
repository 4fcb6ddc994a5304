package io.kopf4j.internal.watching;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.kopf4j.OperatorSettings;
import io.kopf4j.Resource;
import io.kopf4j.internal.logging.CapturedLines;
import io.kopf4j.internal.runtime.Metrics;
import io.kopf4j.internal.watching.WatchEvent;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The list and watch protocol against a fake API server that answers each watch request as the
 * test scripts it: which streams are watched again from which version, and which list again.
 */
class ResourceWatcherTest {
    private static final Resource KOPFEXAMPLES = new Resource("kopf.dev", "v1", "kopfexamples", "KopfExample",
            "kopfexample", List.of(), List.of(), List.of("status"), true, true, List.of("list", "watch", "patch"));
    private static final String PATH = "/apis/kopf.dev/v1/namespaces/ns/kopfexamples";
    private static final Duration WAIT = Duration.ofSeconds(10);

    /**
     * A scripted answer to one watch or list request: its code, its headers, its body in chunks, and
     * whether the stream then stays open; code 0: the connection breaks after the chunks.
     */
    private record Answer(int code, Map<String, String> headers, List<String> chunks, boolean staysOpen) {
        Answer(int code, List<String> chunks, boolean staysOpen) {
            this(code, Map.of(), chunks, staysOpen);
        }

        static Answer broken(String... chunks) {
            return new Answer(0, List.of(chunks), false);
        }

        static Answer ending(String... chunks) {
            return new Answer(200, List.of(chunks), false);
        }

        static Answer open(String... chunks) {
            return new Answer(200, List.of(chunks), true);
        }

        /** As API Priority and Fairness rejects a request: a text, and the delay in a header. */
        static Answer throttled(int retryAfterSeconds) {
            return new Answer(429, Map.of("Retry-After", String.valueOf(retryAfterSeconds)),
                    List.of("Too many requests, please try again later.\n"), false);
        }
    }

    private final BlockingQueue<Answer> watches = new LinkedBlockingQueue<>();
    /** Answers to list requests, before the default one: a single page with object "a". */
    private final BlockingQueue<Answer> lists = new LinkedBlockingQueue<>();
    private final List<Long> requestTimes = new CopyOnWriteArrayList<>();
    private final List<String> requests = new CopyOnWriteArrayList<>();
    private final List<WatchEvent> delivered = new CopyOnWriteArrayList<>();
    private final AtomicInteger listings = new AtomicInteger();
    private final CountDownLatch release = new CountDownLatch(1);
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final OperatorSettings settings = new OperatorSettings();
    private HttpServer server;
    private KubernetesClient client;
    private ResourceWatcher watcher;
    private Thread thread;

    @BeforeEach
    void startTheFakeApiServer() throws IOException {
        startServer(0);
        client = new KubernetesClientBuilder().withConfig(new ConfigBuilder()
                .withMasterUrl("http://127.0.0.1:" + server.getAddress().getPort())
                .withRequestRetryBackoffLimit(0).build()).build();
    }

    @AfterEach
    void stopEverything() throws InterruptedException {
        if (watcher != null) {
            watcher.stop();
            thread.join(WAIT.toMillis());
        }
        release.countDown();
        client.close();
        server.stop(0);
    }

    @Test
    void aStreamEndedByTheServerIsWatchedAgainFromTheLastVersionWithoutListingAgain() {
        watches.add(Answer.ending(event("ADDED", "b", "101"), bookmark("105")));
        watches.add(Answer.open());

        start();

        await().atMost(WAIT).until(() -> requests.size() == 3);
        assertThat(requests).containsExactly("LIST limit=500",
                "WATCH watch=true&resourceVersion=100&allowWatchBookmarks=true",
                "WATCH watch=true&resourceVersion=105&allowWatchBookmarks=true");
        assertThat(delivered).extracting(WatchEvent::type).containsExactly(null, "ADDED");
        assertThat(delivered.get(0).object()).containsEntry("apiVersion", "kopf.dev/v1").containsEntry("kind", "KopfExample");
        assertThat(restarts("ended")).isEqualTo(1);
        assertThat(watcher.listed().getCount()).isZero();
    }

    @Test
    void anErrorEventOf410ListsAgain() {
        watches.add(Answer.open(event("ADDED", "b", "101"),
                "{\"type\":\"ERROR\",\"object\":{\"kind\":\"Status\",\"message\":\"too old resource version\",\"code\":410}}\n"));
        watches.add(Answer.open());

        try (CapturedLines lines = new CapturedLines(ResourceWatcher.class.getName())) {
            start();
            await().atMost(WAIT).until(() -> requests.size() == 4);
            assertThat(lines.messages()).as("Kopf's line").containsExactly("Restarting the watch-stream for kopfexamples.v1.kopf.dev in 'ns'.");
        }
        assertThat(requests).containsExactly("LIST limit=500",
                "WATCH watch=true&resourceVersion=100&allowWatchBookmarks=true",
                "LIST limit=500",
                "WATCH watch=true&resourceVersion=200&allowWatchBookmarks=true");
        assertThat(delivered).extracting(WatchEvent::type).containsExactly(null, "ADDED", null);
        assertThat(restarts("gone")).isEqualTo(1);
        assertThat(restarts("error")).isZero();
    }

    @Test
    void anHttp410AnswerToTheWatchRequestListsAgain() {
        watches.add(new Answer(410, List.of("{\"kind\":\"Status\",\"message\":\"too old resource version\",\"code\":410}"), false));
        watches.add(Answer.open());

        start();

        await().atMost(WAIT).until(() -> requests.size() == 4);
        assertThat(requests.get(2)).isEqualTo("LIST limit=500");
        assertThat(requests.get(3)).isEqualTo("WATCH watch=true&resourceVersion=200&allowWatchBookmarks=true");
        assertThat(restarts("gone")).isEqualTo(1);
        assertThat(restarts("error")).isZero();
    }

    @Test
    void anotherErrorEventIsAFailureAfterWhichTheResourceIsListedAgain() {
        watches.add(Answer.open("{\"type\":\"ERROR\",\"object\":{\"kind\":\"Status\",\"message\":\"etcd is down\",\"code\":500}}\n"));
        watches.add(Answer.open());

        start();

        await().atMost(WAIT).until(() -> requests.size() == 4);
        assertThat(requests.get(2)).isEqualTo("LIST limit=500");
        assertThat(restarts("error")).isEqualTo(1);
        assertThat(restarts("gone")).isZero();
    }

    @Test
    void aWatchThatCannotReachTheServerIsTriedAgainFromItsVersionWithoutListingAgain() throws IOException {
        watches.add(Answer.ending());
        start();
        await().atMost(WAIT).until(() -> requests.size() == 2);
        await().atMost(WAIT).until(() -> restarts("ended") == 1);

        int port = server.getAddress().getPort();
        server.stop(0);
        await().atMost(WAIT).until(() -> restarts("error") >= 1);
        watches.add(Answer.open());
        startServer(port);

        await().atMost(WAIT).until(() -> watches.isEmpty());
        assertThat(requests).first().isEqualTo("LIST limit=500");
        assertThat(requests.subList(1, requests.size())).hasSize(2)
                .containsOnly("WATCH watch=true&resourceVersion=100&allowWatchBookmarks=true");
    }

    @Test
    void aThrottledWatchIsTriedAgainFromItsVersionAfterItsRetryAfterWithoutListingAgain() {
        watches.add(Answer.throttled(2));
        watches.add(Answer.open());

        start();

        await().atMost(WAIT).until(() -> requests.size() == 3);
        assertThat(requests).containsExactly("LIST limit=500",
                "WATCH watch=true&resourceVersion=100&allowWatchBookmarks=true",
                "WATCH watch=true&resourceVersion=100&allowWatchBookmarks=true");
        assertThat(Duration.ofNanos(requestTimes.get(1) - requestTimes.get(0))).as("the wait: the Retry-After, not the own 1 s")
                .isGreaterThanOrEqualTo(Duration.ofMillis(1900));
        assertThat(restarts("error")).isEqualTo(1);
    }

    @Test
    void aFailedPageOfAListingIsRetriedAloneNotTheWholeListing() {
        settings.networking.errorBackoffs = List.of(Duration.ofMillis(10));
        lists.add(new Answer(200, List.of("{\"metadata\":{\"resourceVersion\":\"50\",\"continue\":\"page-2\"},"
                + "\"items\":[{\"metadata\":{\"name\":\"x\",\"uid\":\"uid-x\"}}]}"), false));
        lists.add(new Answer(503, List.of("{\"kind\":\"Status\",\"message\":\"overloaded\",\"code\":503}"), false));
        watches.add(Answer.open());

        start();

        await().atMost(WAIT).until(() -> requests.size() == 4);
        assertThat(requests).containsExactly("LIST limit=500", "LIST limit=500&continue=page-2", "LIST limit=500&continue=page-2",
                "WATCH watch=true&resourceVersion=100&allowWatchBookmarks=true");
        assertThat(delivered).extracting(event -> (Object) ((Map<?, ?>) event.object().get("metadata")).get("name")).containsExactly("x", "a");
        assertThat(restarts("error")).isZero();
    }

    @Test
    void aStreamBrokenInTheMiddleIsWatchedAgainFromTheLastVersion() {
        watches.add(Answer.broken(event("ADDED", "b", "101")));
        watches.add(Answer.open());

        start();

        await().atMost(WAIT).until(() -> requests.size() == 3);
        assertThat(requests.get(2)).isEqualTo("WATCH watch=true&resourceVersion=101&allowWatchBookmarks=true");
        assertThat(delivered).extracting(WatchEvent::type).containsExactly(null, "ADDED");
        assertThat(restarts("gone") + restarts("error")).isZero();
    }

    @Test
    void linesSplitAcrossChunksAreDeliveredWhole() {
        String added = event("ADDED", "b", "101");
        watches.add(Answer.open(added.substring(0, 10), added.substring(10)));

        start();

        await().atMost(WAIT).until(() -> delivered.size() == 2);
        assertThat(delivered.get(1).object()).extracting("metadata").extracting("name").isEqualTo("b");
    }

    /**
     * Kopf's events: a deletion is delivered as the stream says, with no re-read of the object that a
     * recreation under the same name could answer (there is no server-side label selector to leave).
     */
    @Test
    void aDeletedEventIsDeliveredAsItCameWithoutReadingTheObjectAgain() {
        watches.add(Answer.open(event("DELETED", "b", "101"), bookmark("102")));

        start();

        await().atMost(WAIT).until(() -> watcher.listed().getCount() == 0 && delivered.size() == 2);
        assertThat(delivered.get(1).type()).isEqualTo("DELETED");
        assertThat(delivered.get(1).uid()).isEqualTo("uid-b");
        assertThat(requests).containsExactly("LIST limit=500", "WATCH watch=true&resourceVersion=100&allowWatchBookmarks=true");
    }

    @Test
    void anObjectTooDeepToReadIsSkippedByNameAndTheWatchGoesOnPastIt() {
        String deep = "{\"type\":\"MODIFIED\",\"object\":{\"apiVersion\":\"kopf.dev/v1\",\"kind\":\"KopfExample\",\"metadata\":"
                + "{\"namespace\":\"ns\",\"name\":\"deep\",\"uid\":\"uid-deep\",\"resourceVersion\":\"101\"},\"spec\":"
                + "[".repeat(1500) + "]".repeat(1500) + "}}\n";
        watches.add(Answer.ending(deep, event("ADDED", "b", "102")));
        watches.add(Answer.open());

        try (CapturedLines lines = new CapturedLines(io.kopf4j.internal.logging.ObjectLogger.NAME)) {
            start();
            await().atMost(WAIT).until(() -> requests.size() == 3);
            assertThat(lines.messages()).singleElement().asString()
                    .startsWith("[ns/deep] The object cannot be read and is skipped at its version 101: Document nesting depth (1001)");
        }
        assertThat(delivered).extracting(WatchEvent::name).containsExactly("a", "b");
        assertThat(requests.get(2)).as("watched again after the deep object's version, never at it")
                .isEqualTo("WATCH watch=true&resourceVersion=102&allowWatchBookmarks=true");
        assertThat(registry.find("kopf4j.watch.unreadable").counter().count()).isEqualTo(1);
    }

    @Test
    void aFailureOfItsOwnIsRetriedAfterASecondAndTheWatcherLivesOn() {
        watches.add(Answer.open());
        AtomicInteger calls = new AtomicInteger();
        watcher = new ResourceWatcher(client, KOPFEXAMPLES, "ns", event -> {
            if (calls.incrementAndGet() == 1) {
                throw new IllegalStateException("a bug in the sink");
            }
            delivered.add(event);
        }, settings, new Metrics(registry));
        thread = Thread.ofVirtual().start(watcher);

        await().atMost(WAIT).until(() -> delivered.size() == 1 && watcher.listed().getCount() == 0);
        assertThat(requests).startsWith("LIST limit=500", "LIST limit=500");
        assertThat(watcher.died()).isNull();
        assertThat(restarts("error")).isEqualTo(1);
    }

    @Test
    void aWatcherEndedByWhatTheJvmCannotSurviveSaysWhyForTheLivenessCheck() throws InterruptedException {
        watcher = new ResourceWatcher(client, KOPFEXAMPLES, "ns", event -> {
            throw new OutOfMemoryError("made up for the test");
        }, settings, new Metrics(registry));
        thread = Thread.ofVirtual().uncaughtExceptionHandler((t, e) -> { }).start(watcher);

        assertThat(thread.join(WAIT)).isTrue();
        assertThat(watcher.died()).isInstanceOf(OutOfMemoryError.class);
    }

    @Test
    void stopClosesAnOpenStreamAtOnce() throws InterruptedException {
        watches.add(Answer.open());
        start();
        await().atMost(WAIT).until(() -> requests.size() == 2);

        try (CapturedLines lines = new CapturedLines(ResourceWatcher.class.getName())) {
            watcher.stop();
            assertThat(lines.messages()).as("Kopf's line").containsExactly("Stopping the watch-stream for kopfexamples.v1.kopf.dev in 'ns'.");
        }

        assertThat(thread.join(WAIT)).as("the watcher ended").isTrue();
    }

    private void startServer(int port) throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", port), 0);
        server.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
        server.createContext(PATH, this::answer);
        server.start();
    }

    private void start() {
        watcher = new ResourceWatcher(client, KOPFEXAMPLES, "ns", delivered::add, settings, new Metrics(registry));
        thread = Thread.ofVirtual().start(watcher);
    }

    private double restarts(String reason) {
        Counter counter = registry.find("kopf4j.watch.restarts").tag("reason", reason).counter();
        return counter == null ? 0 : counter.count();
    }

    private void answer(HttpExchange exchange) throws IOException {
        String query = exchange.getRequestURI().getQuery();
        String name = exchange.getRequestURI().getPath().substring(PATH.length());
        try (exchange) {
            if (!name.isEmpty()) {
                requests.add("GET " + name);
                exchange.sendResponseHeaders(404, -1);
            } else if (query.contains("watch=true")) {
                requests.add("WATCH " + query);
                requestTimes.add(System.nanoTime());
                Answer answer = watches.poll(WAIT.toSeconds(), TimeUnit.SECONDS);
                if (answer == null) {
                    return;
                }
                send(exchange, answer);
            } else {
                requests.add("LIST " + query);
                Answer scripted = lists.poll();
                if (scripted != null) {
                    send(exchange, scripted);
                    return;
                }
                String version = String.valueOf(listings.incrementAndGet() * 100);
                byte[] list = ("{\"kind\":\"KopfExampleList\",\"apiVersion\":\"kopf.dev/v1\",\"metadata\":{\"resourceVersion\":\""
                        + version + "\"},\"items\":[{\"metadata\":{\"name\":\"a\",\"uid\":\"uid-a\",\"resourceVersion\":\"" + version
                        + "\"}}]}").getBytes(UTF_8);
                exchange.sendResponseHeaders(200, list.length);
                exchange.getResponseBody().write(list);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void send(HttpExchange exchange, Answer answer) throws IOException, InterruptedException {
        answer.headers().forEach(exchange.getResponseHeaders()::set);
        exchange.sendResponseHeaders(answer.code() == 0 ? 200 : answer.code(), 0);
        OutputStream body = exchange.getResponseBody();
        for (String chunk : answer.chunks()) {
            body.write(chunk.getBytes(UTF_8));
            body.flush();
        }
        if (answer.code() == 0) {
            throw new IOException("the connection breaks in the middle of the stream");
        }
        if (answer.staysOpen()) {
            release.await();
        }
    }

    private static String event(String type, String name, String version) {
        return "{\"type\":\"" + type + "\",\"object\":{\"apiVersion\":\"kopf.dev/v1\",\"kind\":\"KopfExample\",\"metadata\":{\"namespace\":\"ns\",\"name\":\""
                + name + "\",\"uid\":\"uid-" + name + "\",\"resourceVersion\":\"" + version + "\"}}}\n";
    }

    private static String bookmark(String version) {
        return "{\"type\":\"BOOKMARK\",\"object\":{\"kind\":\"KopfExample\",\"metadata\":{\"resourceVersion\":\"" + version + "\"}}}\n";
    }
}
