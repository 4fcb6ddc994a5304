package io.kopf4j.internal.logging;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.ThrowableProxyUtil;
import ch.qos.logback.core.encoder.EncoderBase;
import io.kopf4j.internal.structs.Json;
import io.kopf4j.logback.LoggerNames;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import org.slf4j.event.KeyValuePair;

/**
 * Kopf's JSON log format: one object per line with {@code message}, {@code timestamp} (ISO 8601),
 * {@code severity} (debug, info, warn, error) and, for object loggers, the object's reference
 * ({@code apiVersion, kind, name, uid, namespace}) under the refkey ({@code object} by default).
 * Written by hand: what Kopf's python-json-logger emits is a handful of fields, not worth a library.
 */
final class JsonLineEncoder extends EncoderBase<ILoggingEvent> {
    private final String refkey;

    JsonLineEncoder(String refkey) {
        this.refkey = refkey;
    }

    @Override
    public byte[] headerBytes() {
        return null;
    }

    @Override
    public byte[] encode(ILoggingEvent event) {
        Map<String, Object> line = new LinkedHashMap<>();
        line.put("message", event.getFormattedMessage());
        line.put("timestamp", Instant.ofEpochMilli(event.getTimeStamp()).toString());
        line.put("severity", severity(event.getLevel()));
        line.put("logger", LoggerNames.shown(event.getLoggerName()));
        if (event.getKeyValuePairs() != null) {
            for (KeyValuePair pair : event.getKeyValuePairs()) {
                line.put(ObjectLogger.REFERENCE.equals(pair.key) ? refkey : pair.key, pair.value);
            }
        }
        if (event.getThrowableProxy() != null) {
            line.put("exc_info", ThrowableProxyUtil.asString(event.getThrowableProxy()));
        }
        return (Json.compact(line) + "\n").getBytes(StandardCharsets.UTF_8);
    }

    @Override
    public byte[] footerBytes() {
        return null;
    }

    private static String severity(Level level) {
        return switch (level.toInt()) {
            case Level.ERROR_INT -> "error";
            case Level.WARN_INT -> "warn";
            case Level.INFO_INT -> "info";
            default -> "debug";
        };
    }
}
