package io.kopf4j.logging;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import org.slf4j.LoggerFactory;

/**
 * Applies the command line's verbosity to Logback, when Logback is the SLF4J backend (the CLI's
 * case); with any other backend the application configures its own logging and this does nothing.
 * Kopf's {@code kopf.configure(verbose, quiet)}.
 */
public final class LogSetup {
    /** Kopf's "full" format: {@code [2019-11-07 18:03:52,513] kopf.objects [INFO    ] [ns/name] msg}. */
    public static final String FULL_PATTERN = "[%d{\"yyyy-MM-dd HH:mm:ss,SSS\"}] %-20.-20logger [%-8.8level] %msg%n%ex";

    private LogSetup() {
    }

    /** Verbose: debug lines of kopf4j itself; quiet: warnings and errors only; else info. */
    public static void configure(boolean verbose, boolean quiet) {
        if (!(LoggerFactory.getILoggerFactory() instanceof LoggerContext context)) {
            return;
        }
        Level level = verbose ? Level.DEBUG : quiet ? Level.WARN : Level.INFO;
        context.getLogger("io.kopf4j").setLevel(level);
        context.getLogger("kopf").setLevel(level);
        context.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME).setLevel(quiet ? Level.WARN : Level.INFO);
    }
}
