package io.kopf4j.storage;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One handler's progress as stored on the object, in Kopf's format: fields in Kopf's order,
 * absent ones omitted, timestamps as ISO 8601 UTC with microseconds and {@code +00:00}
 * ({@code 2020-12-31T23:59:59.123456+00:00}); naive timestamps are read as UTC.
 *
 * <pre>{@code
 * ProgressRecord record = settings.persistence.progressStorage.fetch("create", body);
 * if (record != null && record.failure()) logger.warn("create failed for good: {}", record.message());
 * }</pre>
 *
 * @param started when the handler first ran; null if that was lost
 * @param stopped when it finished (succeeded or failed for good); null while running
 * @param delayed when to run it again; null unless a retry is pending
 * @param purpose the cause it runs for: {@code create}, {@code update}, {@code delete}, {@code resume}
 * @param retries attempts so far
 * @param success finished successfully
 * @param failure finished with a permanent failure
 * @param message the last error
 * @param subrefs ids of all its sub-handlers, sorted
 */
public record ProgressRecord(Instant started, Instant stopped, Instant delayed, String purpose, int retries,
                             boolean success, boolean failure, String message, List<String> subrefs) {
    private static final DateTimeFormatter FORMAT = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSSSSxxx");

    /** Sorts the sub-handler ids and drops duplicates. */
    public ProgressRecord {
        subrefs = subrefs == null ? List.of() : subrefs.stream().sorted().distinct().toList();
    }

    /** {@return the record as Kopf stores it (nulls and empty subrefs omitted)} */
    public Map<String, Object> toMap() {
        Map<String, Object> map = new LinkedHashMap<>();
        putIfPresent(map, "started", format(started));
        putIfPresent(map, "stopped", format(stopped));
        putIfPresent(map, "delayed", format(delayed));
        putIfPresent(map, "purpose", purpose);
        map.put("retries", retries);
        map.put("success", success);
        map.put("failure", failure);
        putIfPresent(map, "message", message);
        if (!subrefs.isEmpty()) {
            map.put("subrefs", new ArrayList<>(subrefs));
        }
        return map;
    }

    /**
     * Reads a stored record, tolerating the gaps of older or foreign writers.
     *
     * @param map the record as stored
     * @return the record
     */
    public static ProgressRecord fromMap(Map<?, ?> map) {
        Object retries = map.get("retries");
        Object subrefs = map.get("subrefs");
        return new ProgressRecord(parse(map.get("started")), parse(map.get("stopped")), parse(map.get("delayed")),
                map.get("purpose") instanceof String purpose && !purpose.isEmpty() ? purpose : null,
                retries instanceof Number number ? number.intValue() : 0,
                Boolean.TRUE.equals(map.get("success")), Boolean.TRUE.equals(map.get("failure")),
                map.get("message") == null ? null : map.get("message").toString(),
                subrefs instanceof List<?> list ? list.stream().map(String::valueOf).toList() : List.of());
    }

    /**
     * {@return the timestamp in Kopf's format, or null}
     *
     * @param instant the moment, or null
     */
    public static String format(Instant instant) {
        return instant == null ? null : FORMAT.format(instant.atOffset(ZoneOffset.UTC));
    }

    /**
     * {@return the moment of a timestamp in Kopf's format (naive ones as UTC), or null}
     *
     * @param value the stored value
     */
    public static Instant parse(Object value) {
        if (!(value instanceof String text) || text.isEmpty()) {
            return null;
        }
        try {
            return OffsetDateTime.parse(text).toInstant();
        } catch (DateTimeParseException withoutZone) {
            try {
                return LocalDateTime.parse(text).toInstant(ZoneOffset.UTC);
            } catch (DateTimeParseException e) {
                return null;
            }
        }
    }

    private static void putIfPresent(Map<String, Object> map, String key, Object value) {
        if (value != null) {
            map.put(key, value);
        }
    }
}
