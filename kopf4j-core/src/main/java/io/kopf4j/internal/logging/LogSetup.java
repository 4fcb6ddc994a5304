package io.kopf4j.internal.logging;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.PatternLayout;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.ConsoleAppender;
import ch.qos.logback.core.encoder.Encoder;
import ch.qos.logback.core.encoder.LayoutWrappingEncoder;
import io.kopf4j.logback.LoggerColumnConverter;
import io.kopf4j.logback.LoggerNames;
import java.util.Locale;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Kopf's {@code kopf.configure(...)}: the log format, the object prefix and the verbosity, applied
 * to Logback when it is the SLF4J backend (the CLI's case); with any other backend the application
 * configures its own logging, and only the object prefix applies.
 *
 * <pre>{@code
 * LogSetup.configure(LogSetup.Format.JSON, true, "k8s", false, false);   // as kopf4j run --log-format=json --log-refkey=k8s
 * }</pre>
 */
public final class LogSetup {
    /**
     * Kopf's "full" format: {@code [2019-11-07 18:03:52,513] kopf.objects [INFO    ] [ns/name] msg},
     * the logger in a column of 20 as {@link LoggerNames#column} shows it.
     */
    public static final String FULL_PATTERN = "[%d{\"yyyy-MM-dd HH:mm:ss,SSS\"}] %-20" + LoggerColumnConverter.WORD
            + " [%-8.8level] %msg%n%ex";
    /** Kopf's "plain" format: the message only. */
    public static final String PLAIN_PATTERN = "%msg%n%ex";

    /** Kopf's log formats. */
    public enum Format {
        /** {@link #FULL_PATTERN}: the time, the logger, the level and the message. */
        FULL,
        /** {@link #PLAIN_PATTERN}: the message only. */
        PLAIN,
        /** One JSON object a line, with the object reference under the refkey. */
        JSON
    }

    private static volatile boolean prefix = true;
    private static volatile boolean prefixKind;

    private LogSetup() {
    }

    /**
     * Whether object log lines start with {@code [namespace/name]}.
     *
     * @return true unless {@code configure} turned it off, or chose JSON without a prefix
     */
    public static boolean prefix() {
        return prefix;
    }

    /**
     * Whether the object prefix names the kind too: {@code [namespace/Kind/name]}.
     *
     * @return false unless {@link #prefixKind(boolean)} turned it on
     */
    public static boolean prefixKind() {
        return prefixKind;
    }

    /**
     * Names the kind in the object prefix, {@code [namespace/Kind/name]} (or {@code [Kind/name]}), for
     * operators whose handlers serve several resources, where {@code [namespace/name]} is ambiguous.
     * Off by default: Kopf's prefix has no kind, and alerts written for Kopf's lines match kopf4j's.
     *
     * @param withKind true to name the kind in the prefix
     */
    public static void prefixKind(boolean withKind) {
        prefixKind = withKind;
    }

    /**
     * Verbosity only, keeping the format: for operators embedded in applications.
     *
     * @param verbose kopf4j's and Kopf's loggers at {@code DEBUG}
     * @param quiet all loggers at {@code WARN} (unless verbose, for kopf4j's and Kopf's)
     */
    public static void configure(boolean verbose, boolean quiet) {
        levels(verbose, quiet);
    }

    /**
     * Replaces the console output with the given format, as the CLI does before anything else.
     *
     * @param format the console's format, e.g. {@link Format#JSON}
     * @param withPrefix the {@code [namespace/name]} prefix; null: on for text formats, off for JSON
     * @param refkey the JSON key of the object reference
     * @param verbose kopf4j's and Kopf's loggers at {@code DEBUG}, fabric8's at {@code INFO}
     * @param quiet all loggers at {@code WARN} (unless verbose, for kopf4j's and Kopf's)
     */
    public static void configure(Format format, Boolean withPrefix, String refkey, boolean verbose, boolean quiet) {
        prefix = withPrefix != null ? withPrefix : format != Format.JSON;
        if (LoggerFactory.getILoggerFactory() instanceof LoggerContext context) {
            console(context, format, refkey, verbose);
        }
        levels(verbose, quiet);
    }

    /**
     * Kopf's full format on the console at the default levels, in a context that Logback is still
     * initializing (for the kopf4j command's Logback {@code Configurator}, which SLF4J cannot be
     * asked for yet).
     *
     * @param context Logback's context, being initialized
     */
    public static void configureDefaults(LoggerContext context) {
        console(context, Format.FULL, "object", false);
        levels(context, false, false);
    }

    private static void console(LoggerContext context, Format format, String refkey, boolean verbose) {
        ch.qos.logback.classic.Logger root = context.getLogger(Logger.ROOT_LOGGER_NAME);
        root.detachAndStopAllAppenders();
        ConsoleAppender<ILoggingEvent> console = new ConsoleAppender<>();
        console.setContext(context);
        console.setName("kopf4j-console");
        console.setTarget("System.err");
        console.setEncoder(encoder(context, format, refkey));
        console.start();
        root.addAppender(console);
        context.getLogger("io.fabric8").setLevel(verbose ? Level.INFO : Level.WARN);
    }

    /**
     * The format named on the command line.
     *
     * @param text {@code full}, {@code plain} or {@code json}, in any case
     * @return the format
     * @throws IllegalArgumentException naming the text and the formats expected
     */
    public static Format parseFormat(String text) {
        try {
            return Format.valueOf(text.toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("invalid log format '" + text + "': expected full, plain or json");
        }
    }

    /** The console encoder of the format (package-private for tests: configure() replaces the JVM's output). */
    static Encoder<ILoggingEvent> encoder(LoggerContext context, Format format, String refkey) {
        if (format == Format.JSON) {
            JsonLineEncoder json = new JsonLineEncoder(refkey);
            json.setContext(context);
            json.start();
            return json;
        }
        PatternLayout layout = new PatternLayout();
        layout.setContext(context);
        layout.getInstanceConverterMap().put(LoggerColumnConverter.WORD, LoggerColumnConverter::new);
        layout.setPattern(format == Format.PLAIN ? PLAIN_PATTERN : FULL_PATTERN);
        layout.start();
        LayoutWrappingEncoder<ILoggingEvent> encoder = new LayoutWrappingEncoder<>();
        encoder.setContext(context);
        encoder.setLayout(layout);
        encoder.start();
        return encoder;
    }

    private static void levels(boolean verbose, boolean quiet) {
        if (LoggerFactory.getILoggerFactory() instanceof LoggerContext context) {
            levels(context, verbose, quiet);
        }
    }

    private static void levels(LoggerContext context, boolean verbose, boolean quiet) {
        Level level = verbose ? Level.DEBUG : quiet ? Level.WARN : Level.INFO;
        context.getLogger("io.kopf4j").setLevel(level);
        context.getLogger("kopf").setLevel(level);
        context.getLogger(Logger.ROOT_LOGGER_NAME).setLevel(quiet ? Level.WARN : Level.INFO);
    }
}
