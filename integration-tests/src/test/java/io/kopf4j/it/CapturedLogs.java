package io.kopf4j.it;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import java.util.List;
import org.slf4j.LoggerFactory;

/** The lines of one logger (at DEBUG and above) while open, for tests of embedded operators. */
final class CapturedLogs implements AutoCloseable {
    private final Logger logger;
    private final Level level;
    private final ListAppender<ILoggingEvent> lines = new ListAppender<>();

    CapturedLogs(String name) {
        logger = (Logger) LoggerFactory.getLogger(name);
        level = logger.getLevel();
        lines.start();
        logger.setLevel(Level.DEBUG);
        logger.addAppender(lines);
    }

    boolean contains(String fragment) {
        return snapshot().stream().anyMatch(line -> line.getFormattedMessage().contains(fragment));
    }

    /** {@return how many lines contain the fragment so far} */
    long count(String fragment) {
        return snapshot().stream().filter(line -> line.getFormattedMessage().contains(fragment)).count();
    }

    /** The lines so far: Logback appends under the appender's lock (AppenderBase.doAppend), so it is copied under it. */
    private List<ILoggingEvent> snapshot() {
        synchronized (lines) {
            return List.copyOf(lines.list);
        }
    }

    @Override
    public void close() {
        logger.detachAppender(lines);
        logger.setLevel(level);
    }
}
