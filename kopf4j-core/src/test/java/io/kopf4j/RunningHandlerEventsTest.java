package io.kopf4j;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A context of a test's own, as {@link RunningHandler}'s javadoc shows it: {@link Events} and the
 * context's posting methods end at {@link HandlerContext#events()}, never at each other (they
 * recursed into a StackOverflowError when the context overrode neither).
 */
class RunningHandlerEventsTest {
    private static final Map<String, Object> OBJECT = Map.of("apiVersion", "kopf.dev/v1", "kind", "KopfExample",
            "metadata", Map.of("name", "kopf-example-1", "namespace", "default", "uid", "u1"));

    /** The abstract methods only, as a test writes it. */
    private static class TestContext implements HandlerContext {
        private final Logger logger;

        TestContext(Logger logger) {
            this.logger = logger;
        }

        public Body body() { return new Body(OBJECT); }
        public Patch patch() { return new Patch(); }
        public Logger logger() { return logger; }
        public Resource resource() {
            return new Resource("kopf.dev", "v1", "kopfexamples", "KopfExample", "kopfexample", List.of(), List.of(),
                    List.of("status"), true, true, List.of("list", "watch", "patch"));
        }
        public Object param() { return null; }
        public Memo memo() { return new Memo(); }
        public Reason reason() { return Reason.CREATE; }
        public Diff diff() { return Diff.between(null, OBJECT); }
        public Object old() { return null; }
        public Object current() { return OBJECT; }
        public int retry() { return 0; }
        public Instant started() { return Instant.now(); }
        public String type() { return null; }
        public Map<String, Object> event() { return null; }
    }

    @Test
    void aContextWithoutAPosterLogsWhatItWouldPostFromEventsAndFromItself() throws Exception {
        ch.qos.logback.classic.Logger logger = (ch.qos.logback.classic.Logger) LoggerFactory.getLogger("test.running-handler");
        ListAppender<ILoggingEvent> lines = new ListAppender<>();
        lines.start();
        logger.addAppender(lines);
        try {
            RunningHandler.call(context -> {
                Events.info(context.body(), "Created", "from Events");
                context.warn("Degraded", "from the context");
                context.exception("", "Failed:", new IllegalStateException("boom"));
                return null;
            }, new TestContext(logger));
        } finally {
            logger.detachAppender(lines);
        }
        assertThat(lines.list).extracting(ILoggingEvent::getFormattedMessage).containsExactly(
                "Not posted (no poster in this context): Normal Created: from Events",
                "Not posted (no poster in this context): Warning Degraded: from the context",
                "Not posted (no poster in this context): Error IllegalStateException: Failed: boom");
    }

    @Test
    void aContextWithItsOwnPosterGetsWhatEventsAndTheContextPost() throws Exception {
        List<String> posted = new ArrayList<>();
        HandlerContext context = new TestContext(LoggerFactory.getLogger("test")) {
            @Override
            public KubernetesEvents events() {
                return (objects, type, reason, message) -> posted.add(type + " " + reason + ": " + message);
            }
        };
        RunningHandler.call(current -> {
            Events.event(current.body(), "Normal", "Adopted", "by Events");
            current.info("Created", "by the context");
            return null;
        }, context);
        assertThat(posted).containsExactly("Normal Adopted: by Events", "Normal Created: by the context");
    }
}
