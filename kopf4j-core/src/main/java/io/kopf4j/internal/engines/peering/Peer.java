package io.kopf4j.internal.engines.peering;

import io.kopf4j.internal.structs.Json;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One operator's record in a peering object's status, as Kopf writes and reads it:
 * {@code status: {<identity>: {priority: 0, lifetime: 60, lastseen: "2026-11-23T16:50:00.123456+00:00"}}}.
 * A peer whose {@code lastseen + lifetime} has passed is dead. Its {@link #toString()} is Kopf's
 * {@code repr}, so that the log lines read the same in both.
 *
 * <pre>{@code
 * Peer peer = Peer.parse("alice@laptop", Map.of("priority", 100, "lifetime", 60), Instant.now());
 * Map<String, Object> entry = peer.asMap();   // {priority=100, lifetime=60, lastseen=...}
 * }</pre>
 *
 * @param identity the operator's identity (the key in the status)
 * @param priority a higher priority makes the others pause
 * @param lifetime how long the record stays valid after {@code lastseen}
 * @param lastseen when the operator last touched its record
 */
public record Peer(String identity, int priority, Duration lifetime, Instant lastseen) {
    /** Kopf's default for a record without a lifetime (a hard-coded 60 s, whatever this operator's is). */
    private static final Duration DEFAULT_LIFETIME = Duration.ofSeconds(60);
    private static final DateTimeFormatter SECONDS = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss");

    /**
     * Reads a status entry as Kopf does: a missing priority is 0, a missing lifetime 60 s, a
     * missing {@code lastseen} is now (a live peer); a time without an offset is UTC (as Python's iso8601).
     */
    public static Peer parse(String identity, Map<?, ?> entry, Instant now) {
        Object priority = entry.get("priority");
        Object lifetime = entry.get("lifetime");
        Object lastseen = entry.get("lastseen");
        return new Peer(identity,
                priority == null ? 0 : integer(priority),
                lifetime == null ? DEFAULT_LIFETIME : Duration.ofSeconds(integer(lifetime)),
                lastseen == null ? now : parseTime(lastseen.toString()));
    }

    /** A record that is dead at once (a lifetime of 0): touching with it removes the peer's record. */
    public static Peer leaving(String identity, int priority) {
        return new Peer(identity, priority, Duration.ZERO, Instant.now());
    }

    /** When the record expires. */
    public Instant deadline() {
        return lastseen.plus(lifetime);
    }

    /** Kopf's {@code is_dead}: the deadline has come. */
    public boolean isDead(Instant now) {
        return !deadline().isAfter(now);
    }

    /** The status entry, in Kopf's field order: priority, lifetime (whole seconds), lastseen. */
    public Map<String, Object> asMap() {
        Map<String, Object> entry = new LinkedHashMap<>();
        entry.put("priority", priority);
        entry.put("lifetime", lifetime.toSeconds());
        entry.put("lastseen", isoformat(lastseen));
        return entry;
    }

    /**
     * Python's {@code datetime.isoformat()} of an aware UTC time: microseconds, or none at all when
     * they are zero, and {@code +00:00}, as Kopf writes {@code lastseen}.
     */
    public static String isoformat(Instant time) {
        Instant micros = time.truncatedTo(ChronoUnit.MICROS);
        LocalDateTime utc = LocalDateTime.ofInstant(micros, ZoneOffset.UTC);
        int fraction = utc.getNano() / 1000;
        return SECONDS.format(utc) + (fraction == 0 ? "" : String.format(".%06d", fraction)) + "+00:00";
    }

    /** Kopf's {@code repr}: {@code <Peer alice@laptop: priority=100, lifetime=60, lastseen='...'>}. */
    @Override
    public String toString() {
        return "<Peer " + identity + ": priority=" + priority + ", lifetime=" + lifetime.toSeconds()
                + ", lastseen=" + Json.pythonRepr(isoformat(lastseen)) + ">";
    }

    private static int integer(Object value) {
        return value instanceof Number number ? number.intValue() : Integer.parseInt(value.toString().strip());
    }

    private static Instant parseTime(String text) {
        try {
            return OffsetDateTime.parse(text, DateTimeFormatter.ISO_DATE_TIME).toInstant();
        } catch (DateTimeParseException noOffset) {
            return LocalDateTime.parse(text, DateTimeFormatter.ISO_DATE_TIME).toInstant(ZoneOffset.UTC);
        }
    }
}
