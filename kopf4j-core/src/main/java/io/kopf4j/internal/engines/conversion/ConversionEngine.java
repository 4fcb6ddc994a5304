package io.kopf4j.internal.engines.conversion;

import io.kopf4j.WebhookError;
import io.kopf4j.WebhookFn;
import io.kopf4j.WebhookRequest;
import io.kopf4j.internal.intents.ConversionGraph;
import io.kopf4j.internal.intents.ConversionHandler;
import io.kopf4j.internal.intents.HandlerRegistry;
import io.kopf4j.internal.intents.HandlerScanner;
import io.kopf4j.internal.logging.ObjectLogger;
import io.kopf4j.internal.structs.Dicts;
import io.kopf4j.internal.structs.Json;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The conversion webhook: one ConversionReview in (the objects and the version the API server
 * wants them in), the same objects in that version out, in the same order, through the
 * operator's conversions ({@link ConversionGraph}) and kopf4j's record of what a version cannot
 * hold ({@link ConversionData}). A conversion that throws fails the whole review with its message,
 * answered as HTTP 200 with {@code result.status: Failure}: the API server then fails the client's
 * request with {@code conversion webhook for <group/version>, Kind=<kind> failed: <message>}
 * (a non-200 answer would hide the message behind the HTTP error).
 *
 * <pre>{@code
 * WebhookFn conversions = new ConversionEngine(ConversionGraph.of(registry.conversions()));
 * Map<String, Object> answer = conversions.serve(conversionReview, request);
 * }</pre>
 */
public final class ConversionEngine implements WebhookFn {
    private static final Logger LOG = LoggerFactory.getLogger(ConversionEngine.class);
    /** The API server's annotations hold 256 KiB in all: a record that takes them past 200 KiB is not kept. */
    static final int MAX_ANNOTATIONS_SIZE = 200 * 1024;

    private final ConversionGraph graph;
    private final boolean keepsLostFields;

    /** @param graph the operator's conversions */
    public ConversionEngine(ConversionGraph graph) {
        this(graph, true);
    }

    /**
     * @param graph the operator's conversions
     * @param keepsLostFields whether what a version cannot hold is kept in the annotation {@value ConversionData#ANNOTATION}
     *        (always, when serving; off only to test that the conversions themselves lose nothing)
     */
    public ConversionEngine(ConversionGraph graph, boolean keepsLostFields) {
        this.graph = graph;
        this.keepsLostFields = keepsLostFields;
    }

    /**
     * The conversions of handler classes or objects, as {@code kopf4j-testing} checks them.
     *
     * @param targets classes or instances with {@code @On.Convert} methods
     * @param keepsLostFields see {@link #ConversionEngine(ConversionGraph, boolean)}
     * @return the engine
     * @throws io.kopf4j.InvalidHandlerException as the operator's start would
     */
    public static ConversionEngine of(List<Object> targets, boolean keepsLostFields) {
        HandlerRegistry registry = new HandlerRegistry();
        targets.forEach(target -> HandlerScanner.scan(target, registry));
        return new ConversionEngine(ConversionGraph.of(registry.conversions()), keepsLostFields);
    }

    /** {@return the versions of a kind that this engine converts between: the hub's first; empty for another kind} */
    public List<String> versions(String group, String kind) {
        return graph.kind(group, kind).map(ConversionGraph.KindConversions::versions).orElse(List.of());
    }

    @Override
    public Map<String, Object> serve(Map<String, Object> review, WebhookRequest request) {
        if (!(review.get("request") instanceof Map<?, ?> payload) || !(payload.get("uid") instanceof String uid)
                || !(payload.get("desiredAPIVersion") instanceof String desired)
                || !(payload.get("objects") instanceof List<?> objects)) {
            throw WebhookError.missingData("A ConversionReview needs request.uid, request.desiredAPIVersion"
                    + " and request.objects.");
        }
        Map<String, Object> response = new LinkedHashMap<>();
        response.put("uid", uid);
        try {
            List<Object> converted = new ArrayList<>(objects.size());
            for (Object object : objects) {
                converted.add(convert(object, desired));
            }
            response.put("result", Map.of("status", "Success"));
            response.put("convertedObjects", converted);
        } catch (ConversionFailure e) {
            response.put("result", Map.of("status", "Failure", "message", e.getMessage()));
        }
        Map<String, Object> answer = new LinkedHashMap<>();
        answer.put("apiVersion", review.getOrDefault("apiVersion", "apiextensions.k8s.io/v1"));
        answer.put("kind", "ConversionReview");
        answer.put("response", response);
        return answer;
    }

    /**
     * One object in the desired version; a failure is logged with the object's name.
     *
     * @param item the object as JSON maps, with its {@code apiVersion} and {@code kind}
     * @param desired the {@code apiVersion} to convert it to
     * @return the converted object (the same object if it is in that version already)
     * @throws IllegalArgumentException with the message the API server would report
     */
    @SuppressWarnings("unchecked")
    public Map<String, Object> convert(Object item, String desired) {
        if (!(item instanceof Map<?, ?> raw) || !(raw.get("apiVersion") instanceof String apiVersion)
                || !(raw.get("kind") instanceof String kind)) {
            throw new ConversionFailure("an object to convert has no apiVersion or kind");
        }
        Map<String, Object> object = (Map<String, Object>) raw;
        if (apiVersion.equals(desired)) {
            return object;
        }
        try {
            String[] from = split(apiVersion);
            String[] to = split(desired);
            if (!from[0].equals(to[0])) {
                throw new ConversionFailure("cannot convert " + kind + " from group " + from[0] + " to " + to[0]);
            }
            Map<String, Object> current = object;
            for (ConversionHandler step : steps(from[0], kind, from[1], to[1])) {
                current = step(step, current);
            }
            return current;
        } catch (ConversionFailure e) {
            ObjectLogger.local(object).warn("Conversion from {} to {} failed: {}", apiVersion, desired, e.getMessage());
            throw e;
        } catch (RuntimeException e) {
            // Garbage in the object that a step could not take apart: this object's failure, not the server's.
            ObjectLogger.local(object).warn("Conversion from {} to {} failed: {}", apiVersion, desired, e.toString());
            throw new ConversionFailure("cannot convert " + kind + ": " + e, e);
        }
    }

    private List<ConversionHandler> steps(String group, String kind, String from, String to) {
        try {
            return graph.path(group, kind, from, to);
        } catch (IllegalArgumentException e) {
            throw new ConversionFailure(e.getMessage(), e);
        }
    }

    /**
     * One step, losing nothing: the fields this version lost before are put back, and what the
     * source version loses in this one is recorded, found by converting the result back.
     */
    private Map<String, Object> step(ConversionHandler step, Map<String, Object> source) {
        Map<String, Object> plain = TypedStep.apply(step, source);
        if (!keepsLostFields) {
            return plain;
        }
        Map<String, Object> result = Json.deepCopy(plain);
        ConversionData data = ConversionData.of(source);
        data.retainOnly(graph.kind(step.to().group(), step.to().kind()).orElseThrow().versions());
        try {
            data.restore(step.to().version(), result);
            if (!TypedStep.fitsTarget(step, result)) {
                // The record is the object's, so anybody who can write the object can write it: what does not fit is dropped.
                ObjectLogger.local(source).warn("What {} recorded in {} does not fit {}; it is not restored.",
                        step.to().version(), ConversionData.ANNOTATION, step.to());
                result = Json.deepCopy(plain);
            }
            data.record(step.from().version(), source, TypedStep.apply(graph.reverse(step), result));
        } catch (ConversionFailure e) {
            // The way back is the API server's concern when it is asked for; nothing to record on this one.
            LOG.debug("Conversion {} has no way back for this object: {}", step.origin(), e.getMessage());
        } catch (RuntimeException e) {
            LOG.debug("What {} loses cannot be recorded for this object: {}", step.from().version(), e.getMessage());
        }
        data.writeTo(result);
        if (annotationsSize(result) > MAX_ANNOTATIONS_SIZE) {
            ObjectLogger.local(source).warn("What a version cannot hold is too large for the annotation {}; it is not"
                    + " kept.", ConversionData.ANNOTATION);
            Dicts.remove(result, List.of("metadata", "annotations", ConversionData.ANNOTATION));
        }
        return result;
    }

    /** The bytes of all the object's annotations, as the API server counts them (keys and values, UTF-8). */
    private static long annotationsSize(Map<String, Object> object) {
        long size = 0;
        if (Dicts.resolve(object, List.of("metadata", "annotations"), null) instanceof Map<?, ?> annotations) {
            for (Map.Entry<?, ?> annotation : annotations.entrySet()) {
                size += String.valueOf(annotation.getKey()).getBytes(StandardCharsets.UTF_8).length
                        + String.valueOf(annotation.getValue()).getBytes(StandardCharsets.UTF_8).length;
            }
        }
        return size;
    }

    /** {@code kopf4j.dev/v1} → {@code [kopf4j.dev, v1]}; a core {@code v1} has the empty group. */
    private static String[] split(String apiVersion) {
        int slash = apiVersion.lastIndexOf('/');
        return slash < 0 ? new String[] {"", apiVersion} : new String[] {apiVersion.substring(0, slash),
                apiVersion.substring(slash + 1)};
    }
}
