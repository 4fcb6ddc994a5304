package io.kopf4j.internal.actions;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.kopf4j.Body;
import io.kopf4j.DaemonStopped;
import io.kopf4j.Diff;
import io.kopf4j.HandlerContext;
import io.kopf4j.Index;
import io.kopf4j.KubernetesEvents;
import io.kopf4j.Memo;
import io.kopf4j.Patch;
import io.kopf4j.Reason;
import io.kopf4j.Resource;
import io.kopf4j.SubHandler;
import io.kopf4j.internal.intents.Cause;
import io.kopf4j.internal.intents.DaemonCause;
import io.kopf4j.internal.logging.EventSink;
import io.kopf4j.internal.structs.Dicts;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;
import org.slf4j.Logger;

/**
 * What one handler sees of a cause: field handlers get old, current and diff relative to their
 * field. Changing handlers may run sub-handlers through {@code subhandling}; event handlers have none.
 * The client is the operator's handler client, the same for every handler.
 */
record InvocationContext(Cause cause, Diff diff, Object old, Object current, int retry, Instant started,
                         Object param, SubHandling subhandling, EventSink poster, KubernetesClient client,
                         Function<String, Index<?, ?>> indexes)
        implements HandlerContext {

    static InvocationContext of(Cause cause, List<String> field, HandlerState state, Object param,
                                SubHandling subhandling, EventSink poster, KubernetesClient client,
                                Function<String, Index<?, ?>> indexes) {
        if (field == null) {
            return new InvocationContext(cause, cause.diff(), cause.old(), cause.current(), state.retries(),
                    state.started(), param, subhandling, poster, client, indexes);
        }
        return new InvocationContext(cause, cause.diff().reduce(field), resolve(cause.old(), field),
                resolve(cause.current(), field), state.retries(), state.started(), param, subhandling, poster, client, indexes);
    }

    @Override
    @SuppressWarnings("unchecked")
    public <K, V> Index<K, V> index(String id) {
        return (Index<K, V>) indexes.apply(id);
    }

    @Override
    public void register(SubHandler subhandler) {
        changingOnly().register(Objects.requireNonNull(subhandler, "subhandler"));
    }

    @Override
    public void execute() {
        changingOnly().executeRegistered();
    }

    @Override
    public void execute(List<SubHandler> subhandlers) {
        changingOnly().execute(List.copyOf(subhandlers));
    }

    /** Kopf's rule: sub-handlers only for changing causes, which have retries and progress. */
    private SubHandling changingOnly() {
        if (subhandling == null) {
            throw new UnsupportedOperationException("Sub-handlers of event-handlers are not supported and have"
                    + " no practical use (there are no retries or state tracking).");
        }
        return subhandling;
    }

    /** The field's value in an essence (only change causes have them, and only their handlers have fields). */
    @SuppressWarnings("unchecked")
    private static Object resolve(Object essence, List<String> field) {
        return essence instanceof Map<?, ?> map ? Dicts.resolve((Map<String, Object>) map, field, null) : null;
    }

    /** The operator's poster itself, so that events can be posted from any thread. */
    @Override
    public KubernetesEvents events() {
        return poster;
    }

    @Override
    public DaemonStopped stopped() {
        return cause instanceof DaemonCause daemon ? daemon.stopped() : HandlerContext.super.stopped();
    }

    // Admission requests: the cause has them (other causes give HandlerContext's defaults).
    @Override
    public boolean dryrun() {
        return cause.dryrun();
    }

    @Override
    public List<String> warnings() {
        return cause.warnings();
    }

    @Override
    public Map<String, Object> userinfo() {
        return cause.userinfo();
    }

    @Override
    public Map<String, String> headers() {
        return cause.headers();
    }

    @Override
    public Map<String, Object> sslpeer() {
        return cause.sslpeer();
    }

    @Override
    public String operation() {
        return cause.operation();
    }

    @Override
    public String subresource() {
        return cause.subresource();
    }

    @Override
    public Body body() {
        return cause.body();
    }

    @Override
    public Patch patch() {
        return cause.patch();
    }

    @Override
    public Logger logger() {
        return cause.logger();
    }

    @Override
    public Resource resource() {
        return cause.resource();
    }

    @Override
    public Memo memo() {
        return cause.memo();
    }

    @Override
    public Reason reason() {
        return cause.reason();
    }

    @Override
    public String type() {
        return cause.type();
    }

    @Override
    public Map<String, Object> event() {
        return cause.event();
    }
}
