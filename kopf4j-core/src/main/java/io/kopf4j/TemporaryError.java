package io.kopf4j;

import java.time.Duration;

/**
 * Thrown by a handler to be called again later: after {@code delay} (60 seconds by default), or
 * earlier if the object changes.
 *
 * <pre>{@code
 * if (!database.isReady()) throw new TemporaryError("the database is not ready yet", Duration.ofSeconds(10));
 * }</pre>
 */
public class TemporaryError extends RuntimeException {
    private static final long serialVersionUID = 1L;
    /** Kopf's default delay: 60 seconds. */
    public static final Duration DEFAULT_DELAY = Duration.ofSeconds(60);

    /** How long to wait before the next attempt. */
    private final Duration delay;

    /**
     * Retry after the {@link #DEFAULT_DELAY}.
     *
     * @param message why, stored in the handler's progress record
     */
    public TemporaryError(String message) {
        this(message, DEFAULT_DELAY);
    }

    /**
     * Retry after this delay.
     *
     * @param message why, stored in the handler's progress record
     * @param delay the delay; null means none
     */
    public TemporaryError(String message, Duration delay) {
        super(message);
        this.delay = delay == null ? Duration.ZERO : delay;
    }

    /** {@return how long to wait before the next attempt} */
    public Duration delay() {
        return delay;
    }
}
