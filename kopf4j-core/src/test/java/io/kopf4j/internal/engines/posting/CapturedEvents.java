package io.kopf4j.internal.engines.posting;

import static org.assertj.core.api.Assertions.assertThat;

import io.kopf4j.OperatorSettings;
import io.kopf4j.internal.runtime.Metrics;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * A poster whose writes are captured instead of sent; a new Event gets the name {@code event-N}.
 * New Events are written in order, so whatever was not written before the {@link #next()} one never is.
 */
public final class CapturedEvents implements AutoCloseable {
    public final OperatorSettings.Posting settings = new OperatorSettings.Posting();
    private final BlockingQueue<EventWrite> written = new LinkedBlockingQueue<>();
    private final AtomicInteger created = new AtomicInteger();
    public final EventPoster poster;

    public CapturedEvents() {
        this(settings -> { });
    }

    /** With these limits (they are read when the poster starts), e.g. {@code s -> s.repeatInterval = Duration.ZERO}. */
    public CapturedEvents(Consumer<OperatorSettings.Posting> limits) {
        limits.accept(settings);
        poster = new EventPoster(settings, new Metrics(null), write -> {
            written.add(write);
            return write.name() != null ? write.name() : "event-" + created.incrementAndGet();
        });
    }

    /** The next write, awaited for up to 10 seconds. */
    public EventWrite next() throws InterruptedException {
        EventWrite write = written.poll(10, TimeUnit.SECONDS);
        assertThat(write).as("an event written within 10 seconds").isNotNull();
        return write;
    }

    @Override
    public void close() {
        poster.close();
    }
}
