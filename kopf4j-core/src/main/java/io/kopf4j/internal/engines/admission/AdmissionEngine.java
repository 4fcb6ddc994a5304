package io.kopf4j.internal.engines.admission;

import io.kopf4j.AdmissionError;
import io.kopf4j.Body;
import io.kopf4j.HandlerDescription.Option;
import io.kopf4j.Patch;
import io.kopf4j.Resource;
import io.kopf4j.WebhookError;
import io.kopf4j.WebhookFn;
import io.kopf4j.WebhookRequest;
import io.kopf4j.internal.actions.Execution;
import io.kopf4j.internal.actions.Outcome;
import io.kopf4j.internal.intents.HandlerRegistry;
import io.kopf4j.internal.intents.WebhookCause;
import io.kopf4j.internal.intents.WebhookHandler;
import io.kopf4j.internal.logging.ObjectLogger;
import io.kopf4j.internal.structs.Json;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Supplier;

/**
 * The admission engine (Kopf's {@code serve_admission_request}): one AdmissionReview in, the
 * handlers of its resource called once each through {@link Execution#runWebhooks}, one
 * AdmissionReview out. It runs on the webhook server's thread and never touches the watch queues:
 * an admission request never waits behind the object's events.
 *
 * <pre>{@code
 * WebhookFn engine = new AdmissionEngine(registry, () -> resources, execution, memos);
 * Map<String, Object> answer = engine.serve(review, new WebhookRequest("validate", headers, Map.of()));
 * }</pre>
 */
final class AdmissionEngine implements WebhookFn {
    private final HandlerRegistry registry;
    private final Supplier<Collection<Resource>> resources;
    private final Execution execution;
    private final MemoRecall memos;

    /**
     * @param registry the operator's handlers
     * @param resources the resources of the admission handlers, as discovered
     * @param execution how handlers run
     * @param memos the objects' memos
     */
    public AdmissionEngine(HandlerRegistry registry, Supplier<Collection<Resource>> resources, Execution execution,
                           MemoRecall memos) {
        this.registry = registry;
        this.resources = resources;
        this.execution = execution;
        this.memos = memos;
    }

    @Override
    public Map<String, Object> serve(Map<String, Object> review, WebhookRequest request) {
        Map<String, Object> payload = mapOrNull(review.get("request"));
        if (payload == null) {
            throw WebhookError.missingData("The admission request is missing from the admission review.");
        }
        Resource resource = find(payload);
        String operation = textOrNull(payload.get("operation"));
        Map<String, Object> userinfo = mapOrNull(payload.get("userInfo"));
        Map<String, Object> current = mapOrNull(payload.get("object"));
        Map<String, Object> old = mapOrNull(payload.get("oldObject"));
        Map<String, Object> raw = current != null ? current : old;
        if (userinfo == null) {
            throw WebhookError.missingData("User info is missing from the admission request.");
        }
        if (raw == null) {
            throw WebhookError.missingData("Either old or new object is missing from the admission request.");
        }
        Patch patch = new Patch();
        List<String> warnings = new ArrayList<>();
        WebhookCause cause = new WebhookCause(resource, raw, new Body(raw), patch, ObjectLogger.local(raw),
                memos.recall(resource, raw, "CREATE".equals(operation)), request.webhook(),
                Boolean.TRUE.equals(payload.get("dryRun")), operation, textOrNull(payload.get("subResource")),
                userinfo, caseInsensitive(request.headers()), request.sslpeer(), warnings, old, current);
        List<WebhookHandler> handlers = registry.webhookHandlers(cause);
        Map<String, Outcome> outcomes = tolerated(handlers, execution.runWebhooks(handlers, cause));
        return AdmissionResponses.build(review, outcomes, warnings, JsonPatches.of(raw, patch));
    }

    /**
     * The outcomes that decide the answer: a failure of a handler with {@code ignoreFailures} does
     * not reject the request, as Kopf's docs describe the option ("errors from the handler itself")
     * and the issue asks, though Kopf's code only sets the webhook's failure policy. An
     * {@link AdmissionError} is the handler's deliberate answer, not a failure: it rejects.
     */
    private static Map<String, Outcome> tolerated(List<WebhookHandler> handlers, Map<String, Outcome> outcomes) {
        Map<String, Outcome> deciding = new LinkedHashMap<>(outcomes);
        handlers.stream().filter(handler -> handler.options().has(Option.IgnoreFailures.class)).forEach(handler -> {
            Outcome outcome = deciding.get(handler.id());
            if (outcome != null && outcome.error() != null && !(outcome.error() instanceof AdmissionError)) {
                deciding.remove(handler.id());
            }
        });
        return deciding;
    }

    /** Kopf's {@code find_resource}: the requested group, version and plural among the served resources. */
    private Resource find(Map<String, Object> payload) {
        Map<String, Object> requested = mapOrNull(payload.get("resource"));
        if (requested == null) {
            throw WebhookError.missingData("The resource is missing from the admission request.");
        }
        Object group = requested.get("group");
        Object version = requested.get("version");
        Object plural = requested.get("resource");
        List<Resource> matching = resources.get().stream()
                .filter(r -> r.group().equals(group) && r.version().equals(version) && r.plural().equals(plural))
                .toList();
        if (matching.isEmpty()) {
            throw WebhookError.unknownResource("The specified resource has no handlers: " + Json.pythonRepr(requested));
        }
        if (matching.size() > 1) {
            throw WebhookError.ambiguousResource("The specified resource is ambiguous: " + Json.pythonRepr(requested));
        }
        return matching.get(0);
    }

    private static Map<String, Object> mapOrNull(Object value) {
        if (!(value instanceof Map<?, ?> map)) {
            return null;
        }
        Map<String, Object> copy = new LinkedHashMap<>();
        map.forEach((key, child) -> copy.put(String.valueOf(key), child));
        return copy;
    }

    /** HTTP header names are case-insensitive, as in Kopf's aiohttp headers: {@code headers.get("User-Agent")} finds {@code user-agent}. */
    private static Map<String, String> caseInsensitive(Map<String, String> headers) {
        Map<String, String> map = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        map.putAll(headers);
        return Collections.unmodifiableMap(map);
    }

    private static String textOrNull(Object value) {
        return value == null ? null : value.toString();
    }
}
