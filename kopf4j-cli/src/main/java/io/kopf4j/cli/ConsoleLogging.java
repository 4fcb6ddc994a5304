package io.kopf4j.cli;

import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.Configurator;
import ch.qos.logback.core.spi.ContextAwareBase;
import io.kopf4j.internal.logging.LogSetup;

/**
 * The kopf4j command's logging until its options are read: Kopf's full format on the console, set
 * up in code, found by Logback through {@code META-INF/services}. A {@code logback.xml} in the
 * command's jar cost the start of every operator ~300 classes of Logback's XML configuration
 * (Joran, its model processors, the JDK's SAX parser) for an appender that the command replaces
 * at once ({@code --log-format}). A user's own {@code logback.xml} or {@code logback-test.xml} on
 * the classpath, or {@code -Dlogback.configurationFile}, still wins: then Logback reads it as usual.
 *
 * <pre>{@code
 * # META-INF/services/ch.qos.logback.classic.spi.Configurator
 * io.kopf4j.cli.ConsoleLogging
 * }</pre>
 */
public final class ConsoleLogging extends ContextAwareBase implements Configurator {
    /** A configurator as Logback's {@code ServiceLoader} makes one (by reflection: it must stay public). */
    public ConsoleLogging() {
    }

    @Override
    public ExecutionStatus configure(LoggerContext context) {
        return configure(context, ConsoleLogging.class.getClassLoader());
    }

    /** As {@link #configure(LoggerContext)}, looking for a user's configuration with this class loader. */
    static ExecutionStatus configure(LoggerContext context, ClassLoader loader) {
        boolean userConfiguration = System.getProperty("logback.configurationFile") != null
                || loader.getResource("logback-test.xml") != null || loader.getResource("logback.xml") != null;
        if (userConfiguration) {
            return ExecutionStatus.INVOKE_NEXT_IF_ANY;
        }
        LogSetup.configureDefaults(context);
        return ExecutionStatus.DO_NOT_INVOKE_NEXT_IF_ANY;
    }
}
