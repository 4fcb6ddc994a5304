package io.kopf4j.internal.actions;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.kopf4j.Body;
import io.kopf4j.Diff;
import io.kopf4j.Lifecycles;
import io.kopf4j.Memo;
import io.kopf4j.Patch;
import io.kopf4j.Reason;
import io.kopf4j.Resource;
import io.kopf4j.internal.intents.ChangingCause;
import io.kopf4j.internal.intents.ChangingHandler;
import io.kopf4j.internal.runtime.Metrics;
import io.kopf4j.storage.AnnotationsProgressStorage;
import io.kopf4j.storage.ProgressStorage;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.LoggerFactory;

/**
 * One KopfExample object in memory, handled as the reactor does: each {@link #handle} is one
 * handling cycle of a creation (state read from the object's annotations, handlers run, progress
 * written back to them), with the log lines of its logger captured.
 */
public final class ObjectFixture {
    public static final Resource KOPFEXAMPLES = new Resource("kopf.dev", "v1", "kopfexamples", "KopfExample",
            "kopfexample", List.of(), List.of(), List.of(), true, true, List.of("list", "watch", "patch"));
    private static final AtomicInteger LOGGERS = new AtomicInteger();

    private final ProgressStorage storage = new AnnotationsProgressStorage("kopf.zalando.org", true);
    private final Execution execution = new Execution(Lifecycles.allAtOnce(), Duration.ofSeconds(60), storage,
            new Metrics(null), null, new io.kopf4j.internal.engines.posting.EventPoster(new io.kopf4j.OperatorSettings.Posting(), new Metrics(null), write -> "ignored"), null);
    private final Map<String, String> annotations = new LinkedHashMap<>();
    private final Map<String, String> labels;
    private final Map<String, Object> status = new LinkedHashMap<>();
    private final Logger logger = (Logger) LoggerFactory.getLogger("test.object." + LOGGERS.incrementAndGet());
    private final ListAppender<ILoggingEvent> lines = new ListAppender<>();

    public ObjectFixture(Map<String, String> labels) {
        this.labels = labels;
        lines.start();
        logger.setLevel(ch.qos.logback.classic.Level.DEBUG);
        logger.addAppender(lines);
    }

    /** Sets a stored progress record, as an earlier cycle would have left it. */
    public void annotate(String key, String value) {
        annotations.put(key, value);
    }

    /** One handling cycle for these handlers; returns their outcomes. */
    public Map<String, Outcome> handle(List<ChangingHandler> handlers) {
        Map<String, Object> raw = Map.of("metadata", Map.of("name", "ex", "namespace", "ns",
                "labels", labels, "annotations", Map.copyOf(annotations)), "status", Map.copyOf(status));
        Patch patch = new Patch();
        ChangingCause cause = new ChangingCause(KOPFEXAMPLES, raw, new Body(raw), patch, logger, new Memo(), Reason.CREATE, false,
                false, Diff.between(null, Map.of()), null, Map.of());
        State state = State.fromStorage(raw, storage, handlers, logger).withPurpose("create", List.of()).withHandlers(handlers);
        Map<String, Outcome> outcomes = execution.runChanging(handlers, state, cause);
        state.withOutcomes(outcomes).store(raw, patch, storage);
        outcomes.forEach((id, outcome) -> {
            if (outcome.succeeded()) {
                Results.deliver(patch, id, outcome.result());
            }
        });
        patch.annotations().forEach((key, value) -> {
            if (value == null) {
                annotations.remove(key);
            } else {
                annotations.put(key, (String) value);
            }
        });
        status.putAll(patch.status());
        return outcomes;
    }

    /** The stored progress record of a handler, as JSON text. */
    public String record(String id) {
        io.kopf4j.storage.ProgressRecord record = storage.fetch(id, Map.of("metadata", Map.of("annotations", annotations)));
        return record == null ? null : io.kopf4j.internal.structs.Json.compact(record.toMap());
    }

    public Map<String, Object> status() {
        return status;
    }

    /** The formatted log lines so far. */
    public List<String> log() {
        return lines.list.stream().map(ILoggingEvent::getFormattedMessage).toList();
    }

    /** The exception logged with the line that contains this text, or null. */
    public Throwable loggedWith(String text) {
        return lines.list.stream().filter(line -> line.getFormattedMessage().contains(text)).findFirst()
                .map(line -> line.getThrowableProxy() == null ? null
                        : ((ch.qos.logback.classic.spi.ThrowableProxy) line.getThrowableProxy()).getThrowable())
                .orElse(null);
    }
}
