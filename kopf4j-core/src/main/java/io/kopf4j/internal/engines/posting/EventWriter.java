package io.kopf4j.internal.engines.posting;

/**
 * Where {@link EventPoster} sends its writes: the API server ({@code EventSender}), or a list in tests.
 *
 * <pre>{@code
 * List<EventWrite> written = new ArrayList<>();
 * EventPoster poster = new EventPoster(settings.posting, new Metrics(null), write -> {
 *     written.add(write);
 *     return write.name() != null ? write.name() : "event-" + written.size();
 * });
 * }</pre>
 */
@FunctionalInterface
public interface EventWriter {
    /**
     * Creates or updates the Event.
     *
     * @return the Event's name, for its next counts
     * @throws RuntimeException if the API server did not take it (the poster logs it and goes on)
     */
    String write(EventWrite write);
}
