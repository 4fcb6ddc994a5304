package io.kopf4j.internal.logging;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.LoggingEvent;
import io.kopf4j.internal.reactor.orchestration.Orchestrator;
import io.kopf4j.internal.reactor.queueing.ObjectQueues;
import io.kopf4j.internal.structs.Json;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Kopf's log formats show each logger under its Kopf name (io.kopf4j.logback.LoggerNames). */
class LogFormatsTest {
    @Test
    void theFullFormatPadsTheShownNameToKopfsColumn() {
        assertThat(fullLine("io.kopf4j.testing.LocalCluster", "Local cluster started"))
                .endsWith("] i.k.t.LocalCluster   [INFO    ] Local cluster started\n");
        assertThat(fullLine(Orchestrator.class.getName(), "Watching"))
                .endsWith("] k.r.orchestration    [INFO    ] Watching\n");
    }

    @Test
    void jsonLogsShowTheKopfNameInFull() {
        LoggerContext context = new LoggerContext();
        String line = new String(LogSetup.encoder(context, LogSetup.Format.JSON, "object")
                .encode(event(context, ObjectQueues.class.getName(), "queued")), StandardCharsets.UTF_8);
        assertThat(Json.parseMap(line)).containsAllEntriesOf(Map.of("logger", "kopf.reactor.queueing"));
    }

    private static String fullLine(String logger, String message) {
        LoggerContext context = new LoggerContext();
        return new String(LogSetup.encoder(context, LogSetup.Format.FULL, "object").encode(event(context, logger, message)),
                StandardCharsets.UTF_8);
    }

    private static LoggingEvent event(LoggerContext context, String logger, String message) {
        return new LoggingEvent(LogFormatsTest.class.getName(), context.getLogger(logger), Level.INFO, message, null, null);
    }
}
