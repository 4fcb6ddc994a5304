package io.kopf4j.internal.engines.posting;

import java.time.Instant;
import java.util.Map;

/**
 * One write of a Kubernetes Event, after correlation: a new Event (POST) when {@code name} is null,
 * else a new {@code count}, {@code lastTimestamp} and {@code message} of the posted Event with this
 * name (PATCH).
 *
 * <pre>{@code
 * new EventWrite(reference, "Normal", "Logging", "Timer 'tick' succeeded.", 60, first, last, "kopf-event-x7k2p");
 * }</pre>
 *
 * @param reference the involved object: apiVersion, kind, name, uid, namespace (those known)
 * @param message the latest occurrence's message; for combined similar events, with client-go's prefix
 * @param count the occurrences so far, this write's included
 * @param firstTimestamp when the first occurrence was queued
 * @param lastTimestamp when the latest occurrence was queued
 * @param name the posted Event's name; null for a new Event
 */
public record EventWrite(Map<String, Object> reference, String type, String reason, String message, int count,
                         Instant firstTimestamp, Instant lastTimestamp, String name) {
}
