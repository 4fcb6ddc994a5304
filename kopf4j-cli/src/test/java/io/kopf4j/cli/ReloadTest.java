package io.kopf4j.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.AppenderBase;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceList;
import io.fabric8.kubernetes.client.dsl.NonNamespaceOperation;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.kopf4j.envtest.LocalCluster;
import io.kopf4j.envtest.LocalClusterExtension;
import io.kopf4j.envtest.TemporaryNamespace;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.lang.ref.WeakReference;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/**
 * {@code kopf4j run --reload} against a real API server: a saved edit of the handler source
 * replaces the handlers of the running command; a compile error keeps the old ones.
 */
@ExtendWith(LocalClusterExtension.class)
class ReloadTest {
    private static final Duration RELOAD = Duration.ofSeconds(60);
    private static final String RELOADED = "Reloaded the handlers in ";
    private static final String KEPT = "Reload failed; the previous handlers keep running.";
    private static final String LOADER = "kopf4j.reload-test.loader.";
    private static final String STARTED = LOADER + "started";
    private static final String PROCEED = LOADER + "proceed";
    /**
     * A startup handler that counts down the test's latch {@link #STARTED}, then waits for its latch
     * {@link #PROCEED}: the JDK's class, shared by the test and the handlers' class loader.
     */
    private static final String STARTUP_THAT_WAITS = """
            @On.Startup
            public void waitForTheTest() throws InterruptedException {
                ((java.util.concurrent.CountDownLatch) System.getProperties().get("%s")).countDown();
                ((java.util.concurrent.CountDownLatch) System.getProperties().get("%s")).await();
            }
            """.formatted(STARTED, PROCEED);

    @TempDir
    Path dir;
    private Path source;
    private final ReloadLog log = new ReloadLog();
    private Thread run;

    @BeforeEach
    void watchTheLog() {
        source = dir.resolve("Handlers.java");
        log.start();
        ((Logger) LoggerFactory.getLogger(OperatorRun.class)).addAppender(log);
    }

    @AfterEach
    void stopTheRun() throws InterruptedException {
        if (System.getProperties().get(PROCEED) instanceof CountDownLatch proceed) {
            proceed.countDown();   // a startup handler still waiting lets the operator stop
        }
        if (run != null) {
            run.interrupt();   // the command stops its operator as it ends
            run.join(Duration.ofSeconds(60));
        }
        ((Logger) LoggerFactory.getLogger(OperatorRun.class)).detachAppender(log);
        System.getProperties().keySet().removeIf(key -> key.toString().startsWith(LOADER));
    }

    @Test
    void anEditedHandlerServesNewObjectsAndTheHandledOnesAreNotCreatedAgain(LocalCluster cluster, TemporaryNamespace namespace)
            throws Exception {
        startRun(cluster, namespace, handlers("v1"));
        createAndAwait(cluster, namespace, "first", "v1");

        save(handlers("v2"), RELOADED, 1);
        createAndAwait(cluster, namespace, "second", "v2");

        // A later event of the first object reaches the new handlers: had the new operator taken the
        // first object for a new one, its create handler would have run before this update.
        objects(cluster, namespace).withName("first").edit(object -> {
            object.setAdditionalProperty("spec", Map.of("field", "changed"));
            return object;
        });
        awaitStatus(cluster, namespace, "first", "update", "v2");
        assertThat(status(cluster, namespace, "first")).containsEntry("create", "v1");

        // Once replaced, handlers can be collected with their class loader: the first ones and a reload's.
        WeakReference<?> first = (WeakReference<?>) System.getProperties().get(LOADER + "v1");
        WeakReference<?> reloaded = (WeakReference<?>) System.getProperties().get(LOADER + "v2");
        save(handlers("v3"), RELOADED, 2);
        await().atMost(RELOAD).until(() -> {
            System.gc();
            return first.get() == null && reloaded.get() == null;
        });
    }

    @Test
    void aCompileErrorKeepsTheRunningHandlersUntilTheSourceCompilesAgain(LocalCluster cluster, TemporaryNamespace namespace)
            throws Exception {
        startRun(cluster, namespace, handlers("v1"));
        createAndAwait(cluster, namespace, "before", "v1");

        save(handlers("v2").replace("return \"v2\";", "return \"v2\""), KEPT, 1);
        assertThat(log.messages()).anySatisfy(message -> assertThat(message)
                .startsWith(source + ":4: error: ';' expected"));
        createAndAwait(cluster, namespace, "during", "v1");

        save(handlers("v3"), RELOADED, 1);
        createAndAwait(cluster, namespace, "after", "v3");
        assertThat(log.count(KEPT)).isEqualTo(1);
    }

    @Test
    void anEditSavedWhileTheOperatorStartsIsReloadedOnceItHasStarted(LocalCluster cluster, TemporaryNamespace namespace)
            throws Exception {
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch proceed = new CountDownLatch(1);
        System.getProperties().put(STARTED, started);
        System.getProperties().put(PROCEED, proceed);
        startRun(cluster, namespace, handlers("v1", STARTUP_THAT_WAITS));
        assertThat(started.await(RELOAD.toSeconds(), TimeUnit.SECONDS)).as("the first operator is inside its start").isTrue();

        Files.writeString(source, handlers("v2", STARTUP_THAT_WAITS));
        proceed.countDown();
        await().atMost(RELOAD).until(() -> log.count(RELOADED) == 1);
        createAndAwait(cluster, namespace, "edited", "v2");
    }

    /** Saves the handler source and waits until the log has this line this many times. */
    private void save(String handlers, String line, long times) throws Exception {
        Files.writeString(source, handlers);
        await().atMost(RELOAD).until(() -> log.count(line) == times);
    }

    /**
     * Handlers that put their version into the object's status ({@code status.create},
     * {@code status.update}) and, at startup, a weak reference to their class loader into the
     * system properties.
     */
    private static String handlers(String version) {
        return handlers(version, "");
    }

    /** As {@link #handlers(String)}, with more members in the class. */
    private static String handlers(String version, String members) {
        return """
                import io.kopf4j.On;
                public class Handlers {
                    @On.Create("kopfexamples")
                    public String create() { return "%1$s"; }
                    @On.Update("kopfexamples")
                    public String update() { return "%1$s"; }
                    @On.Startup
                    public void remember() {
                        System.getProperties().put("%2$s%1$s", new java.lang.ref.WeakReference<>(getClass().getClassLoader()));
                    }
                %3$s}
                """.formatted(version, LOADER, members);
    }

    private void startRun(LocalCluster cluster, TemporaryNamespace namespace, String handlers) throws Exception {
        cluster.apply(Path.of("../examples/crd.yaml"));
        Files.writeString(source, handlers);
        String[] args = {"run", "--reload", "--standalone", "-n", namespace.name(), "--kubeconfig",
                cluster.kubeconfig().toString(), source.toString()};
        run = Thread.ofPlatform().name("reload-test-run").start(() ->
                Main.execute(args, new PrintWriter(new StringWriter(), true), new PrintWriter(new StringWriter(), true)));
    }

    private static NonNamespaceOperation<GenericKubernetesResource, GenericKubernetesResourceList,
            Resource<GenericKubernetesResource>> objects(LocalCluster cluster, TemporaryNamespace namespace) {
        return cluster.client().genericKubernetesResources("kopf.dev/v1", "KopfExample").inNamespace(namespace.name());
    }

    /** Creates an object and waits until a create handler of this version has handled it. */
    private static void createAndAwait(LocalCluster cluster, TemporaryNamespace namespace, String name, String version) {
        objects(cluster, namespace).resource(new GenericKubernetesResourceBuilder()
                .withApiVersion("kopf.dev/v1").withKind("KopfExample")
                .withNewMetadata().withName(name).endMetadata()
                .withAdditionalProperties(Map.of("spec", Map.of("field", "value")))
                .build()).create();
        awaitStatus(cluster, namespace, name, "create", version);
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> status(LocalCluster cluster, TemporaryNamespace namespace, String name) {
        Object status = objects(cluster, namespace).withName(name).get().getAdditionalProperties().get("status");
        return status instanceof Map<?, ?> map ? (Map<String, Object>) map : Map.of();
    }

    private static void awaitStatus(LocalCluster cluster, TemporaryNamespace namespace, String name, String field, String value) {
        await().atMost(RELOAD).untilAsserted(() -> assertThat(status(cluster, namespace, name)).containsEntry(field, value));
    }

    /** The messages of {@link OperatorRun}'s log. */
    private static final class ReloadLog extends AppenderBase<ILoggingEvent> {
        private final List<String> messages = new CopyOnWriteArrayList<>();

        ReloadLog() {
            setContext((ch.qos.logback.classic.LoggerContext) LoggerFactory.getILoggerFactory());
        }

        @Override
        protected void append(ILoggingEvent event) {
            messages.add(event.getFormattedMessage());
        }

        List<String> messages() {
            return messages;
        }

        long count(String start) {
            return messages.stream().filter(message -> message.startsWith(start)).count();
        }
    }
}
