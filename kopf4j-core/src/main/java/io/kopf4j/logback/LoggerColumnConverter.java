package io.kopf4j.logback;

import ch.qos.logback.classic.pattern.ClassicConverter;
import ch.qos.logback.classic.spi.ILoggingEvent;

/**
 * The Logback conversion word {@value #WORD}: the logger's name as {@link LoggerNames#column} shows
 * it, for Kopf's full format ({@code %-20kopfLogger}). Logback configurations declare it with
 * {@code <conversionRule conversionWord="kopfLogger" class="io.kopf4j.logback.LoggerColumnConverter"/>}.
 *
 * <pre>{@code
 * <conversionRule conversionWord="kopfLogger" class="io.kopf4j.logback.LoggerColumnConverter"/>
 * <pattern>[%d] %-20kopfLogger [%-8level] %msg%n</pattern>
 * }</pre>
 */
public final class LoggerColumnConverter extends ClassicConverter {
    /** The conversion word in patterns. */
    public static final String WORD = "kopfLogger";

    /** A converter as Logback makes one for each pattern that uses the word (by reflection: it must stay public). */
    public LoggerColumnConverter() {
    }

    @Override
    public String convert(ILoggingEvent event) {
        return LoggerNames.column(event.getLoggerName());
    }
}
