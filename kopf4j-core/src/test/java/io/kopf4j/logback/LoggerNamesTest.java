package io.kopf4j.logback;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.PatternLayout;
import ch.qos.logback.classic.joran.JoranConfigurator;
import ch.qos.logback.classic.spi.LoggingEvent;
import ch.qos.logback.core.joran.spi.JoranException;
import io.kopf4j.Operator;
import io.kopf4j.OperatorSettings;
import io.kopf4j.internal.logging.ObjectLogger;
import io.kopf4j.internal.reactor.observation.Observer;
import io.kopf4j.internal.reactor.orchestration.Orchestrator;
import io.kopf4j.internal.reactor.queueing.ObjectQueues;
import io.kopf4j.internal.running.OperatorRuntime;
import io.kopf4j.internal.watching.ResourceWatcher;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class LoggerNamesTest {
    @Test
    void kopf4jsClassesAreShownUnderTheirKopfModules() {
        assertThat(LoggerNames.shown(ObjectQueues.class.getName())).isEqualTo("kopf.reactor.queueing");
        assertThat(LoggerNames.shown(Observer.class.getName())).isEqualTo("kopf.reactor.observation");
        assertThat(LoggerNames.shown(Orchestrator.class.getName())).isEqualTo("kopf.reactor.orchestration");
        assertThat(LoggerNames.shown(ResourceWatcher.class.getName())).isEqualTo("kopf.clients.watching");
        assertThat(LoggerNames.shown(Operator.class.getName())).isEqualTo("kopf.reactor.running");
        assertThat(LoggerNames.shown(OperatorRuntime.class.getName())).isEqualTo("kopf.reactor.running");
    }

    @Test
    void aPrefixMatchesWholeSegmentsOnly() {
        assertThat(LoggerNames.shown(OperatorSettings.class.getName())).isEqualTo("io.kopf4j.OperatorSettings");
        assertThat(LoggerNames.shown("io.kopf4j.clientsextra.Thing")).isEqualTo("io.kopf4j.clientsextra.Thing");
    }

    @Test
    void kopfsOwnAndOtherNamesAreShownAsTheyAre() {
        assertThat(LoggerNames.shown("kopf.activities.startup")).isEqualTo("kopf.activities.startup");
        assertThat(LoggerNames.shown("com.example.Handlers")).isEqualTo("com.example.Handlers");
    }

    @Test
    void longNamesAreAbbreviatedToTheColumnBySegmentsNeverMidWord() {
        assertThat(LoggerNames.column(ObjectLogger.NAME)).isEqualTo("kopf.objects");
        assertThat(LoggerNames.column("kopf.engines.posting")).isEqualTo("kopf.engines.posting");
        assertThat(LoggerNames.column(ObjectQueues.class.getName())).isEqualTo("k.reactor.queueing");
        assertThat(LoggerNames.column("kopf.activities.startup")).isEqualTo("k.activities.startup");
        assertThat(LoggerNames.column("io.kopf4j.testing.LocalCluster")).isEqualTo("i.k.t.LocalCluster");
        assertThat(LoggerNames.column("io.fabric8.kubernetes.client.dsl.internal.WatchConnectionManager"))
                .as("the last segment is never abbreviated").isEqualTo("i.f.k.c.d.i.WatchConnectionManager");
    }

    /**
     * A Logback configuration names the converter's class, as its javadoc shows; Logback (the module
     * ch.qos.logback.core) instantiates it by reflection, which this package's export to it allows.
     */
    @Test
    void aLogbackConfigurationDeclaresTheConverterByItsClassName() throws JoranException {
        LoggerContext context = new LoggerContext();
        JoranConfigurator configurator = new JoranConfigurator();
        configurator.setContext(context);
        configurator.doConfigure(new ByteArrayInputStream("""
                <configuration>
                  <conversionRule conversionWord="kopfLogger" class="io.kopf4j.logback.LoggerColumnConverter"/>
                </configuration>
                """.getBytes(StandardCharsets.UTF_8)));
        PatternLayout layout = new PatternLayout();
        layout.setContext(context);
        layout.setPattern("%kopfLogger");
        layout.start();
        assertThat(layout.doLayout(event(context, Orchestrator.class.getName(), "Watching"))).isEqualTo("k.r.orchestration");
    }

    private static LoggingEvent event(LoggerContext context, String logger, String message) {
        return new LoggingEvent(LoggerNamesTest.class.getName(), context.getLogger(logger), Level.INFO, message, null, null);
    }
}
