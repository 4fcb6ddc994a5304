package io.kopf4j.internal.logging;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.kopf4j.internal.engines.posting.CapturedEvents;
import io.kopf4j.internal.engines.posting.EventWrite;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/** Kopf's ObjectLogger posts its messages as Events; its LocalObjectLogger never does. */
class ObjectLoggerTest {
    private static final Map<String, Object> BODY = Map.of("apiVersion", "kopf.dev/v1", "kind", "KopfExample",
            "metadata", Map.of("name", "ex", "namespace", "ns"));

    private final CapturedEvents captured = new CapturedEvents();

    @AfterEach
    void close() {
        captured.close();
    }

    @Test
    void thePostingLoggerPostsFromThePostingLevelUp() throws InterruptedException {
        ObjectLogger logger = ObjectLogger.posting(BODY, captured.poster);
        logger.debug("too detailed");
        logger.info("Hello {}", "ex");
        assertThat(captured.next()).extracting(EventWrite::type, EventWrite::reason, EventWrite::message)
                .containsExactly("Normal", "Logging", "Hello ex");
    }

    @Test
    void theLocalLoggerNeverPosts() throws InterruptedException {
        ObjectLogger.local(BODY).error("Handler 'spy' failed with an exception and will ignore it: oops");
        ObjectLogger.posting(BODY, captured.poster).warn("posted after it");
        assertThat(captured.next().message()).isEqualTo("posted after it");
    }

    @Test
    void thePrefixNamesTheKindOnlyWhenAsked() {
        ch.qos.logback.classic.Logger objects = (ch.qos.logback.classic.Logger) LoggerFactory.getLogger(ObjectLogger.NAME);
        ListAppender<ILoggingEvent> lines = new ListAppender<>();
        lines.start();
        objects.addAppender(lines);
        Map<String, Object> clusterScoped = Map.of("apiVersion", "kopf.dev/v1", "kind", "KopfExample", "metadata", Map.of("name", "ex"));
        try {
            ObjectLogger.local(BODY).info("Kopf's prefix");
            LogSetup.prefixKind(true);
            ObjectLogger.local(BODY).info("with the kind");
            ObjectLogger.local(clusterScoped).info("cluster-scoped");
        } finally {
            LogSetup.prefixKind(false);
            objects.detachAppender(lines);
        }
        assertThat(lines.list).extracting(ILoggingEvent::getFormattedMessage).containsExactly(
                "[ns/ex] Kopf's prefix", "[ns/KopfExample/ex] with the kind", "[KopfExample/ex] cluster-scoped");
    }

    @Test
    void theTerseLoggerLogsInfosOnlyInTheVerboseModeAndWarningsAlways() {
        ch.qos.logback.classic.Logger objects = (ch.qos.logback.classic.Logger) LoggerFactory.getLogger(ObjectLogger.NAME);
        ch.qos.logback.classic.Level before = objects.getLevel();
        ListAppender<ILoggingEvent> lines = new ListAppender<>();
        lines.start();
        objects.addAppender(lines);
        try {
            objects.setLevel(ch.qos.logback.classic.Level.INFO);
            ObjectLogger.terse(BODY).info("quiet info");
            ObjectLogger.terse(BODY).warn("loud warning");
            objects.setLevel(ch.qos.logback.classic.Level.DEBUG);
            ObjectLogger.terse(BODY).info("verbose info");
            ObjectLogger.terse(BODY).debug("never a debug");
        } finally {
            objects.setLevel(before);
            objects.detachAppender(lines);
        }
        assertThat(lines.list).extracting(ILoggingEvent::getFormattedMessage)
                .containsExactly("[ns/ex] loud warning", "[ns/ex] verbose info");
    }
}
