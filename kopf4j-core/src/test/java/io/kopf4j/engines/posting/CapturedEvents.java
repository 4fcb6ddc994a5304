package io.kopf4j.engines.posting;

import static org.assertj.core.api.Assertions.assertThat;

import io.kopf4j.OperatorSettings;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A poster whose events are captured instead of sent. Events are posted in order, so whatever was
 * not posted before the {@link #next()} one never is.
 */
public final class CapturedEvents implements AutoCloseable {
    public final OperatorSettings.Posting settings = new OperatorSettings.Posting();
    private final BlockingQueue<K8sEvent> posted = new LinkedBlockingQueue<>();
    public final EventPoster poster = new EventPoster(settings, posted::add);

    /** The next event posted, awaited for up to 10 seconds. */
    public K8sEvent next() throws InterruptedException {
        K8sEvent event = posted.poll(10, TimeUnit.SECONDS);
        assertThat(event).as("an event posted within 10 seconds").isNotNull();
        return event;
    }

    @Override
    public void close() {
        poster.close();
    }
}
