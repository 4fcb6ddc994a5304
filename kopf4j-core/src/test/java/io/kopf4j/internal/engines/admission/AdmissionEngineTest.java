package io.kopf4j.internal.engines.admission;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.spi.ILoggingEvent;
import io.kopf4j.AdmissionError;
import io.kopf4j.Condition;
import io.kopf4j.HandlerDescription.Option;
import io.kopf4j.HandlerFn;
import io.kopf4j.HandlerKind;
import io.kopf4j.Lifecycles;
import io.kopf4j.Memo;
import io.kopf4j.OperatorSettings;
import io.kopf4j.Resource;
import io.kopf4j.WebhookError;
import io.kopf4j.WebhookRequest;
import io.kopf4j.internal.actions.Execution;
import io.kopf4j.internal.engines.posting.EventPoster;
import io.kopf4j.internal.intents.HandlerRegistry;
import io.kopf4j.internal.intents.HandlerSpec;
import io.kopf4j.internal.intents.Specs;
import io.kopf4j.internal.logging.CapturedLines;
import io.kopf4j.internal.logging.ObjectLogger;
import io.kopf4j.internal.runtime.Metrics;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Kopf's serve_admission_request with fakes: malformed requests, the handlers' selection, the parameters. */
class AdmissionEngineTest {
    private static final Resource KOPFEXAMPLES = WebhookConfigurationsTest.KOPFEXAMPLES;
    private static final WebhookRequest ALL = new WebhookRequest(null, Map.of("X-Test", "1"), Map.of("subject", "apiserver"));

    private final HandlerRegistry registry = new HandlerRegistry();
    private final List<Resource> resources = new ArrayList<>(List.of(KOPFEXAMPLES));
    private final Execution execution = new Execution(Lifecycles.allAtOnce(), Duration.ofSeconds(60), null,
            new Metrics(null), null, new EventPoster(new OperatorSettings.Posting(), new Metrics(null), write -> "ignored"), null);
    private final AdmissionEngine engine = new AdmissionEngine(registry, () -> resources, execution,
            (resource, body, ephemeral) -> new Memo());

    private static Map<String, Object> review(String operation, Map<String, Object> object) {
        Map<String, Object> request = new HashMap<>();
        request.put("uid", "req-1");
        Map<String, Object> resource = new LinkedHashMap<>();   // in the API server's order, as the 404 message shows it
        resource.put("group", "kopf.dev");
        resource.put("version", "v1");
        resource.put("resource", "kopfexamples");
        request.put("resource", resource);
        request.put("operation", operation);
        request.put("userInfo", Map.of("username", "alice"));
        if (object != null) {
            request.put(operation.equals("DELETE") ? "oldObject" : "object", object);
        }
        return Map.of("apiVersion", "admission.k8s.io/v1", "kind", "AdmissionReview", "request", request);
    }

    private static Map<String, Object> example(int size) {
        return Map.of("apiVersion", "kopf.dev/v1", "kind", "KopfExample",
                "metadata", Map.of("name", "kex", "namespace", "default"), "spec", Map.of("size", size));
    }

    private void handler(HandlerKind kind, String id, HandlerFn function) {
        Specs.spec(kind, List.of("kopfexamples"), new Option.Id(id)).register(function, registry);
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> payload(Map<String, Object> review) {
        return (Map<String, Object>) review.get("response");
    }

    /** A validating handler "size" that rejects sizes above 100. */
    private void sizeLimit() {
        handler(HandlerKind.VALIDATE, "size", context -> {
            if (context.spec().getInt("size", 0) > 100) {
                throw new AdmissionError("Size must be <= 100", 422);
            }
            return null;
        });
    }

    @Test
    void aValidatingHandlerRejectsWithItsMessageAndCode() {
        sizeLimit();
        assertThat(payload(engine.serve(review("CREATE", example(101)), ALL))).containsEntry("uid", "req-1")
                .containsEntry("allowed", false).containsEntry("status", Map.of("message", "Size must be <= 100", "code", 422));
        assertThat(payload(engine.serve(review("CREATE", example(5)), ALL))).containsEntry("allowed", true)
                .doesNotContainKey("status");
    }

    @Test
    void aMutatingHandlersPatchBecomesTheResponsesJsonPatch() {
        handler(HandlerKind.MUTATE, "defaults", context -> {
            context.patch().spec().put("field", "default");
            return null;
        });
        Map<String, Object> payload = payload(engine.serve(review("CREATE", example(1)), ALL));
        String patch = new String(Base64.getDecoder().decode((String) payload.get("patch")), StandardCharsets.UTF_8);
        assertThat(patch).isEqualTo("[{\"op\": \"add\", \"path\": \"/spec/field\", \"value\": \"default\"}]");
        assertThat(payload).containsEntry("patchType", "JSONPatch").containsEntry("allowed", true);
    }

    @Test
    void handlersSeeTheRequestsParametersAndAddWarnings() {
        Map<String, Object> seen = new HashMap<>();
        handler(HandlerKind.VALIDATE, "look", context -> {
            seen.put("dryrun", context.dryrun());
            seen.put("userinfo", context.userinfo());
            seen.put("headers", context.headers());
            seen.put("header", context.headers().get("x-test"));   // names are case-insensitive
            seen.put("sslpeer", context.sslpeer());
            seen.put("operation", context.operation());
            seen.put("subresource", context.subresource());
            seen.put("name", context.name());
            seen.put("old", context.old());
            context.warnings().add("careful");
            return null;
        });
        Map<String, Object> review = review("CREATE", example(1));
        @SuppressWarnings("unchecked")
        Map<String, Object> request = (Map<String, Object>) review.get("request");
        request.put("dryRun", true);
        Map<String, Object> payload = payload(engine.serve(review, ALL));
        assertThat(payload).containsEntry("warnings", List.of("careful"));
        assertThat(seen).containsEntry("dryrun", true).containsEntry("userinfo", Map.of("username", "alice"))
                .containsEntry("headers", Map.of("X-Test", "1")).containsEntry("header", "1").containsEntry("sslpeer", Map.of("subject", "apiserver"))
                .containsEntry("operation", "CREATE").containsEntry("subresource", null).containsEntry("name", "kex")
                .containsEntry("old", null);
    }

    @Test
    void aSuccessfulCallIsLoggedAtDebugARefusalAtInfoAndAFailureAtError() {
        sizeLimit();
        handler(HandlerKind.VALIDATE, "broken", context -> {
            if (context.spec().getInt("size", 0) == 13) {
                throw new IllegalStateException("unlucky");
            }
            return null;
        });
        try (CapturedLines lines = new CapturedLines(ObjectLogger.NAME)) {
            engine.serve(review("CREATE", example(5)), ALL);
            engine.serve(review("CREATE", example(101)), ALL);
            engine.serve(review("CREATE", example(13)), ALL);
            assertThat(lines.events()).filteredOn(event -> event.getLevel().isGreaterOrEqual(Level.INFO))
                    .extracting(event -> event.getLevel() + " " + event.getFormattedMessage())
                    .containsExactly("INFO [default/kex] Webhook 'size' failed permanently: Size must be <= 100",
                            "ERROR [default/kex] Webhook 'broken' failed with an exception and will stop now: unlucky");
            assertThat(lines.events()).filteredOn(event -> event.getLevel() == Level.DEBUG)
                    .extracting(ILoggingEvent::getFormattedMessage).contains("[default/kex] Webhook 'size' succeeded.");
        }
    }

    @Test
    void theUrlsHandlerIdSelectsOneHandler() {
        List<String> called = new ArrayList<>();
        handler(HandlerKind.VALIDATE, "first", context -> called.add("first"));
        handler(HandlerKind.VALIDATE, "second", context -> called.add("second"));
        engine.serve(review("CREATE", example(1)), new WebhookRequest("second", Map.of(), Map.of()));
        assertThat(called).containsExactly("second");
        engine.serve(review("CREATE", example(1)), ALL);
        assertThat(called).containsExactly("second", "first", "second");
    }

    @Test
    void mutatingHandlersSkipDeletionsUnlessForDeletionsAlone() {
        List<String> called = new ArrayList<>();
        handler(HandlerKind.MUTATE, "any", context -> called.add("any"));
        Specs.spec(HandlerKind.MUTATE, List.of("kopfexamples"), new Option.Id("deletions"), new Option.Operations(List.of("DELETE")))
                .register(context -> called.add("deletions"), registry);
        handler(HandlerKind.VALIDATE, "validating", context -> called.add("validating"));
        engine.serve(review("DELETE", example(1)), ALL);
        assertThat(called).containsExactly("deletions", "validating");
    }

    @Test
    void subresourceHandlersGetOnlyTheirSubresource() {
        List<String> called = new ArrayList<>();
        handler(HandlerKind.VALIDATE, "main", context -> called.add("main"));
        Specs.spec(HandlerKind.VALIDATE, List.of("kopfexamples"), new Option.Id("status"), new Option.Subresource("status"))
                .register(context -> called.add("status"), registry);
        Specs.spec(HandlerKind.VALIDATE, List.of("kopfexamples"), new Option.Id("any"), new Option.Subresource("*"))
                .register(context -> called.add("any"), registry);
        Map<String, Object> review = review("UPDATE", example(1));
        @SuppressWarnings("unchecked")
        Map<String, Object> request = (Map<String, Object>) review.get("request");
        request.put("subResource", "status");
        engine.serve(review, ALL);
        assertThat(called).containsExactly("status", "any");
    }

    @Test
    void labelFiltersApplyToTheObject() {
        List<String> called = new ArrayList<>();
        Specs.spec(HandlerKind.VALIDATE, List.of("kopfexamples"), new Option.Id("web"), new Option.Label("app", new Condition.Exact("web")))
                .register(context -> called.add("web"), registry);
        engine.serve(review("CREATE", example(1)), ALL);
        assertThat(called).isEmpty();
    }

    @Test
    void anArbitraryExceptionRejectsTheRequest() {
        handler(HandlerKind.VALIDATE, "broken", context -> {
            throw new IllegalStateException("boom");
        });
        assertThat(payload(engine.serve(review("CREATE", example(1)), ALL))).containsEntry("allowed", false)
                .containsEntry("status", Map.of("message", "boom", "code", 500));
    }

    @Test
    void withIgnoreFailuresAnExceptionLetsTheRequestThroughButAnAdmissionErrorRejects() {
        Specs.spec(HandlerKind.VALIDATE, List.of("kopfexamples"), new Option.Id("tolerant"), new Option.IgnoreFailures())
                .register(context -> {
                    if (context.spec().getInt("size", 0) > 100) {
                        throw new AdmissionError("Size must be <= 100");
                    }
                    throw new IllegalStateException("boom");
                }, registry);
        assertThat(payload(engine.serve(review("CREATE", example(1)), ALL))).containsEntry("allowed", true)
                .doesNotContainKey("status");
        assertThat(payload(engine.serve(review("CREATE", example(101)), ALL))).containsEntry("allowed", false)
                .containsEntry("status", Map.of("message", "Size must be <= 100", "code", 500));
    }

    @Test
    void missingUserInfoOrObjectIs400() {
        handler(HandlerKind.VALIDATE, "v", context -> null);
        Map<String, Object> noUser = review("CREATE", example(1));
        ((Map<?, ?>) noUser.get("request")).remove("userInfo");
        assertThatThrownBy(() -> engine.serve(noUser, ALL)).isInstanceOf(WebhookError.class)
                .hasMessage("User info is missing from the admission request.")
                .extracting(e -> ((WebhookError) e).httpStatus()).isEqualTo(400);
        assertThatThrownBy(() -> engine.serve(review("CREATE", null), ALL)).isInstanceOf(WebhookError.class)
                .hasMessage("Either old or new object is missing from the admission request.")
                .extracting(e -> ((WebhookError) e).httpStatus()).isEqualTo(400);
        assertThatThrownBy(() -> engine.serve(Map.of("kind", "AdmissionReview"), ALL)).isInstanceOf(WebhookError.class)
                .extracting(e -> ((WebhookError) e).httpStatus()).isEqualTo(400);
    }

    @Test
    void anUnservedResourceIs404AndAnAmbiguousOne409() {
        resources.clear();
        assertThatThrownBy(() -> engine.serve(review("CREATE", example(1)), ALL)).isInstanceOf(WebhookError.class)
                .hasMessage("The specified resource has no handlers: "
                        + "{'group': 'kopf.dev', 'version': 'v1', 'resource': 'kopfexamples'}")
                .extracting(e -> ((WebhookError) e).httpStatus()).isEqualTo(404);
        resources.add(KOPFEXAMPLES);
        resources.add(new Resource("kopf.dev", "v1", "kopfexamples", "KopfExample", "kopfexample", List.of(),
                List.of(), List.of(), false, true, List.of()));
        assertThatThrownBy(() -> engine.serve(review("CREATE", example(1)), ALL)).isInstanceOf(WebhookError.class)
                .extracting(e -> ((WebhookError) e).httpStatus()).isEqualTo(409);
    }
}
