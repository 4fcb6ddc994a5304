package io.kopf4j.internal.logging;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import java.util.Arrays;
import java.util.List;
import org.slf4j.LoggerFactory;

/**
 * The lines of some loggers (with their descendants, from DEBUG up) while open, for tests of log
 * texts; integration-tests use it too (kopf4j-core's test-jar).
 *
 * <pre>{@code
 * try (CapturedLines lines = new CapturedLines("kopf.objects")) {
 *     ...
 *     assertThat(lines.messages()).contains("[ns/a] Indexer 'byName' succeeded.");
 * }
 * }</pre>
 */
public class CapturedLines implements AutoCloseable {
    private final List<Logger> loggers;
    private final List<Level> levels;
    private final ListAppender<ILoggingEvent> lines = new ListAppender<>();

    /** @param names the loggers, each with its descendants */
    public CapturedLines(String... names) {
        loggers = Arrays.stream(names).map(name -> (Logger) LoggerFactory.getLogger(name)).toList();
        levels = loggers.stream().map(Logger::getLevel).toList();
        lines.start();
        loggers.forEach(logger -> {
            logger.setLevel(Level.DEBUG);
            logger.addAppender(lines);
        });
    }

    /** The lines so far: Logback appends under the appender's lock (AppenderBase.doAppend), so they are copied under it. */
    public List<ILoggingEvent> events() {
        synchronized (lines) {
            return List.copyOf(lines.list);
        }
    }

    /** {@return the formatted messages so far} */
    public List<String> messages() {
        return events().stream().map(ILoggingEvent::getFormattedMessage).toList();
    }

    /** {@return whether a line so far contains the fragment} */
    public boolean contains(String fragment) {
        return messages().stream().anyMatch(line -> line.contains(fragment));
    }

    /** {@return how many lines so far contain the fragment} */
    public long count(String fragment) {
        return messages().stream().filter(line -> line.contains(fragment)).count();
    }

    @Override
    public void close() {
        for (int i = 0; i < loggers.size(); i++) {
            loggers.get(i).detachAppender(lines);
            loggers.get(i).setLevel(levels.get(i));
        }
    }
}
