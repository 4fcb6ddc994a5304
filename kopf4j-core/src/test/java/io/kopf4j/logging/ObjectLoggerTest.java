package io.kopf4j.logging;

import static org.assertj.core.api.Assertions.assertThat;

import io.kopf4j.OperatorSettings;
import io.kopf4j.engines.EventPoster;
import io.kopf4j.engines.K8sEvent;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Kopf's ObjectLogger posts its messages as Events; its LocalObjectLogger never does. */
class ObjectLoggerTest {
    private static final Map<String, Object> BODY = Map.of("apiVersion", "kopf.dev/v1", "kind", "KopfExample",
            "metadata", Map.of("name", "ex", "namespace", "ns"));

    private final OperatorSettings.Posting settings = new OperatorSettings.Posting();
    private final BlockingQueue<K8sEvent> posted = new LinkedBlockingQueue<>();
    private final EventPoster poster = new EventPoster(settings, posted::add);

    @AfterEach
    void close() {
        poster.close();
    }

    /** The first event posted; events are posted in order, so whatever was not posted before it never is. */
    private K8sEvent next() throws InterruptedException {
        K8sEvent event = posted.poll(10, TimeUnit.SECONDS);
        assertThat(event).as("an event posted within 10 seconds").isNotNull();
        return event;
    }

    @Test
    void thePostingLoggerPostsFromThePostingLevelUp() throws InterruptedException {
        ObjectLogger logger = ObjectLogger.posting(BODY, poster);
        logger.debug("too detailed");
        logger.info("Hello {}", "ex");
        assertThat(next()).extracting(K8sEvent::type, K8sEvent::reason, K8sEvent::message)
                .containsExactly("Normal", "Logging", "Hello ex");
    }

    @Test
    void theLocalLoggerNeverPosts() throws InterruptedException {
        ObjectLogger.local(BODY).error("Handler 'spy' failed with an exception and will ignore it: oops");
        ObjectLogger.posting(BODY, poster).warn("posted after it");
        assertThat(next().message()).isEqualTo("posted after it");
    }
}
