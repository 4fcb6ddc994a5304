package io.kopf4j.internal.engines.admission;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.kopf4j.HandlerDescription.Option;
import io.kopf4j.HandlerKind;
import io.kopf4j.HostileValues;
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
import io.kopf4j.internal.runtime.Metrics;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.instancio.Random;
import org.instancio.junit.Given;
import org.instancio.junit.GivenProvider;
import org.instancio.junit.InstancioExtension;
import org.instancio.junit.InstancioSource;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;

/**
 * Whatever an AdmissionReview holds, from anyone who reaches the webhook port: every field of any
 * type, or missing, and objects of any shape. What must hold: the engine answers (an AdmissionReview
 * with the request's uid, allowed or not) or refuses the request as malformed (a WebhookError, which
 * the server answers with its HTTP status); nothing else comes out of it.
 */
@ExtendWith(InstancioExtension.class)
class HostileReviewProperties {
    private static final Resource KOPFEXAMPLES = WebhookConfigurationsTest.KOPFEXAMPLES;

    private final HandlerRegistry registry = new HandlerRegistry();
    private final AdmissionEngine engine;

    HostileReviewProperties() {
        Specs.spec(HandlerKind.VALIDATE, List.of("kopfexamples"), new Option.Id("check")).register(context -> {
            context.spec().get("size");
            context.body().get("metadata");
            return null;
        }, registry);
        Specs.spec(HandlerKind.MUTATE, List.of("kopfexamples"), new Option.Id("defaults")).register(context -> {
            context.patch().spec().put("touched", true);
            return null;
        }, registry);
        Execution execution = new Execution(Lifecycles.allAtOnce(), Duration.ofSeconds(60), null, new Metrics(null), null,
                new EventPoster(new OperatorSettings.Posting(), new Metrics(null), write -> "ignored"), null);
        engine = new AdmissionEngine(registry, () -> List.of(KOPFEXAMPLES), execution, (resource, body, ephemeral) -> new Memo());
    }

    /** An AdmissionReview whose every field is of any type, or of the expected one with any content. */
    static final class Reviews implements GivenProvider {
        @Override
        public Object provide(ElementContext context) {
            Random random = context.random();
            Map<String, Object> request = new LinkedHashMap<>();
            request.put("uid", HostileValues.json(random, 2));
            request.put("resource", random.trueOrFalse() ? HostileValues.json(random, 3)
                    : Map.of("group", "kopf.dev", "version", "v1", "resource", "kopfexamples"));
            request.put("operation", random.trueOrFalse() ? HostileValues.json(random, 2)
                    : random.oneOf("CREATE", "UPDATE", "DELETE", "CONNECT"));
            request.put("object", object(random));
            request.put("oldObject", object(random));
            request.put("userInfo", HostileValues.json(random, 3));
            request.put("dryRun", HostileValues.scalar(random));
            Map<String, Object> review = new LinkedHashMap<>();
            review.put("apiVersion", "admission.k8s.io/v1");
            review.put("kind", "AdmissionReview");
            review.put("request", random.diceRoll(true) ? HostileValues.json(random, 3) : request);
            return review;
        }

        private static Object object(Random random) {
            if (random.trueOrFalse()) {
                return HostileValues.json(random, 3);
            }
            Map<String, Object> example = new LinkedHashMap<>(Map.of("apiVersion", "kopf.dev/v1", "kind", "KopfExample",
                    "metadata", Map.of("name", "x", "namespace", "default")));
            example.put("spec", HostileValues.json(random, 3));
            return example;
        }
    }

    /** The webhook's id in the path: a handler's, another, none, or any text. */
    static final class Ids implements GivenProvider {
        @Override
        public Object provide(ElementContext context) {
            Random random = context.random();
            return switch (random.intRange(0, 2)) {
                case 0 -> random.oneOf("check", "defaults", "nope");
                case 1 -> null;
                default -> HostileValues.text(random);
            };
        }
    }

    @ParameterizedTest
    @InstancioSource(samples = 500)
    void anyReviewIsAnsweredOrRefusedAsMalformed(@Given(Reviews.class) Map<String, Object> review, @Given(Ids.class) String webhook) {
        Throwable failure = catchThrowable(() -> {
            Map<String, Object> answer = engine.serve(review, new WebhookRequest(webhook, Map.of(), Map.of()));
            assertThat(answer).containsKey("response");
        });
        assertThat(failure).as("serving %s", review).satisfiesAnyOf(
                nothing -> assertThat(nothing).isNull(),
                malformed -> assertThat(malformed).isInstanceOf(WebhookError.class));
    }
}
