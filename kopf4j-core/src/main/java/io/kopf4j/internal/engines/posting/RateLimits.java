package io.kopf4j.internal.engines.posting;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;

/**
 * client-go's {@code EventSourceObjectSpamFilter}: a token bucket per object and event type, so that
 * no object floods the API server with Events: {@code burst} writes at once, then one more per
 * {@code refillInterval}. Unlike client-go, which drops what the bucket refuses, the poster holds it
 * back until the next token (its count keeps growing meanwhile). A bucket that would be full again
 * is forgotten. Not thread-safe.
 *
 * <pre>{@code
 * RateLimits rates = new RateLimits(25, Duration.ofMinutes(5), 10_000);
 * if (rates.nextWrite(key, now).isAfter(now)) { ... wait ... } else { rates.take(key, now); ... write ... }
 * }</pre>
 */
final class RateLimits {
    private final int burst;
    private final long refillNanos;
    private final RecentMap<Subject, Bucket> buckets;

    /** What client-go's {@code getSpamKey} keeps of an Event: the object and the type. */
    private record Subject(Map<String, Object> reference, String type) {
    }

    /** The writes an object has left, as of {@code updated}. */
    private final class Bucket {
        double tokens = burst;
        Instant updated;

        Bucket(Instant now) {
            this.updated = now;
        }

        void refill(Instant now) {
            long elapsed = Math.max(0, Duration.between(updated, now).toNanos());
            tokens = Math.min(burst, tokens + (double) elapsed / refillNanos);
            updated = now;
        }

        /** When it is full again, so no different from a new one. */
        Instant full() {
            return updated.plusNanos((long) Math.ceil((burst - tokens) * refillNanos));
        }
    }

    /** @param capacity the most buckets kept; the least recently used beyond it are forgotten (full again) */
    RateLimits(int burst, Duration refillInterval, int capacity) {
        this.burst = burst;
        this.refillNanos = refillInterval.toNanos();
        this.buckets = new RecentMap<>(capacity);
    }

    /** When the object of this Event may write next: {@code now} if it has a write left. */
    Instant nextWrite(EventKey key, Instant now) {
        Bucket bucket = bucket(key, now);
        return bucket.tokens >= 1 ? now : now.plusNanos((long) Math.ceil((1 - bucket.tokens) * refillNanos));
    }

    /** Takes one write from the object's budget; call after {@link #nextWrite} says it has one. */
    void take(EventKey key, Instant now) {
        bucket(key, now).tokens -= 1;
    }

    private Bucket bucket(EventKey key, Instant now) {
        buckets.forgetWhile(bucket -> !bucket.full().isAfter(now));
        Subject subject = new Subject(key.reference(), key.type());
        Bucket bucket = buckets.get(subject);
        if (bucket == null) {
            bucket = new Bucket(now);
            buckets.put(subject, bucket);
        }
        bucket.refill(now);
        return bucket;
    }
}
