package io.kopf4j.cli;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.Configurator.ExecutionStatus;
import ch.qos.logback.core.ConsoleAppender;
import ch.qos.logback.core.encoder.LayoutWrappingEncoder;
import io.kopf4j.internal.logging.LogSetup;
import java.net.URL;
import java.net.URLClassLoader;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;

class ConsoleLoggingTest {
    @Test
    void withoutAUsersConfigurationKopfsFullFormatOnTheConsole() {
        LoggerContext context = new LoggerContext();
        ClassLoader nothing = new URLClassLoader(new URL[0], null);

        assertThat(ConsoleLogging.configure(context, nothing)).isEqualTo(ExecutionStatus.DO_NOT_INVOKE_NEXT_IF_ANY);

        var console = (ConsoleAppender<?>) context.getLogger(Logger.ROOT_LOGGER_NAME).getAppender("kopf4j-console");
        assertThat(console).isNotNull();
        assertThat(console.getTarget()).isEqualTo("System.err");
        var encoder = (LayoutWrappingEncoder<?>) console.getEncoder();
        assertThat(((ch.qos.logback.classic.PatternLayout) encoder.getLayout()).getPattern()).isEqualTo(LogSetup.FULL_PATTERN);
        assertThat(context.getLogger(Logger.ROOT_LOGGER_NAME).getLevel()).isEqualTo(Level.INFO);
        assertThat(context.getLogger("io.fabric8").getLevel()).isEqualTo(Level.WARN);
    }

    @Test
    void aUsersLogbackFileOnTheClasspathWins() {
        LoggerContext context = new LoggerContext();

        // This module's tests have a logback-test.xml on their classpath.
        assertThat(ConsoleLogging.configure(context, ConsoleLoggingTest.class.getClassLoader()))
                .isEqualTo(ExecutionStatus.INVOKE_NEXT_IF_ANY);
        assertThat(context.getLogger(Logger.ROOT_LOGGER_NAME).getAppender("kopf4j-console")).isNull();
    }
}
