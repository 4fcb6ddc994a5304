package io.kopf4j.it;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import java.util.Arrays;
import java.util.List;
import org.slf4j.LoggerFactory;

/** The lines of some loggers (at DEBUG and above) while open, for tests of embedded operators. */
final class CapturedLogs implements AutoCloseable {
    private final List<Logger> loggers;
    private final List<Level> levels;
    private final ListAppender<ILoggingEvent> lines = new ListAppender<>();

    /** @param names the loggers, each with its descendants */
    CapturedLogs(String... names) {
        loggers = Arrays.stream(names).map(name -> (Logger) LoggerFactory.getLogger(name)).toList();
        levels = loggers.stream().map(Logger::getLevel).toList();
        lines.start();
        loggers.forEach(logger -> {
            logger.setLevel(Level.DEBUG);
            logger.addAppender(lines);
        });
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
        for (int i = 0; i < loggers.size(); i++) {
            loggers.get(i).detachAppender(lines);
            loggers.get(i).setLevel(levels.get(i));
        }
    }
}
