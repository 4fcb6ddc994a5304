package io.kopf4j.internal.reactor.processing;

import static org.assertj.core.api.Assertions.assertThat;

import io.kopf4j.HostileValues;
import io.kopf4j.Lifecycles;
import io.kopf4j.Memo;
import io.kopf4j.On;
import io.kopf4j.OperatorSettings;
import io.kopf4j.Resource;
import io.kopf4j.internal.actions.Execution;
import io.kopf4j.internal.engines.posting.EventPoster;
import io.kopf4j.internal.intents.HandlerRegistry;
import io.kopf4j.internal.intents.HandlerScanner;
import io.kopf4j.internal.reactor.queueing.Pressure;
import io.kopf4j.internal.runtime.Metrics;
import io.kopf4j.internal.structs.Json;
import java.time.Duration;
import java.util.ArrayList;
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
 * Objects of any content, with garbage where Kopf keeps its state, through the whole processing of
 * their events: nothing is lost. An object is handled (its diff-base stored at its spec); an object
 * being deleted has its delete handler run and its finalizer released.
 */
@ExtendWith(InstancioExtension.class)
class HostileObjectProperties {
    private static final Resource KOPFEXAMPLES = new Resource("kopf.dev", "v1", "kopfexamples", "KopfExample",
            "kopfexample", List.of(), List.of(), List.of("status"), true, true, List.of("list", "watch", "patch"));
    private static final String FINALIZER = "kopf.zalando.org/KopfFinalizerMarker";

    public static class Handlers {
        @On.Create("kopfexamples")
        public String create() {
            return "done";
        }

        @On.Delete("kopfexamples")
        public void delete() {
        }
    }

    /** An object: its spec, what is in Kopf's annotations, and whether it is being deleted. */
    record Hostile(Object spec, Map<String, String> annotations, boolean deleting) {
    }

    /** Any spec, up to four of Kopf's annotations (and another) with Kopf's state or garbage, being deleted or not. */
    static final class Objects implements GivenProvider {
        private static final List<String> KEYS = List.of("kopf.zalando.org/last-handled-configuration", "kopf.zalando.org/create",
                "kopf.zalando.org/delete", "kopf.zalando.org/touch-dummy", "example.com/other");

        @Override
        public Object provide(ElementContext context) {
            Random random = context.random();
            Map<String, String> annotations = new LinkedHashMap<>();
            for (int i = random.intRange(0, 4); i > 0; i--) {
                annotations.put(random.oneOf(KEYS), HostileValues.annotationText(random));
            }
            return new Hostile(HostileValues.json(random, 4), annotations, random.trueOrFalse());
        }
    }

    @ParameterizedTest
    @InstancioSource(samples = 200)
    void everyObjectIsHandledAndEveryDeletionCompletes(@Given(Objects.class) Hostile hostile) throws InterruptedException {
        OperatorSettings settings = new OperatorSettings();
        FakeApi api = new FakeApi();
        EventPoster events = new EventPoster(settings.posting, new Metrics(null), write -> "ignored");
        HandlerRegistry registry = new HandlerRegistry();
        HandlerScanner.scan(Handlers.class, registry);
        Execution execution = new Execution(Lifecycles.asap(), Duration.ofSeconds(60), settings.persistence.progressStorage,
                new Metrics(null), null, events, null);
        ResourceProcessor processor = new ResourceProcessor(KOPFEXAMPLES, registry, settings, new Memo(), api, events, execution,
                Spawning.NONE, Childing.NONE, Indexing.NONE, IndexesBarrier.OPEN, Sharding.ALL, SelectionExits.NONE);
        Map<String, Object> metadata = new LinkedHashMap<>(Map.of("uid", "u1", "name", "ex", "namespace", "ns",
                "resourceVersion", "1", "annotations", new LinkedHashMap<>(hostile.annotations())));
        if (hostile.deleting()) {
            metadata.put("finalizers", new ArrayList<>(List.of(FINALIZER)));
            metadata.put("deletionTimestamp", "2026-01-01T00:00:00Z");
        }
        api.object = new LinkedHashMap<>(Map.of("apiVersion", "kopf.dev/v1", "kind", "KopfExample", "metadata", metadata));
        api.object.put("spec", Json.deepCopy(hostile.spec()));

        for (int cycle = 0; cycle < 5; cycle++) {
            processor.process(api.event(cycle == 0 ? "ADDED" : "MODIFIED"), Pressure.NONE, null);
        }

        Map<?, ?> after = (Map<?, ?>) api.object.get("metadata");
        if (hostile.deleting()) {
            assertThat(String.valueOf(after.get("finalizers"))).as("the finalizers, after the deletion handlers").doesNotContain(FINALIZER);
        } else {
            Object diffBase = ((Map<?, ?>) after.get("annotations")).get("kopf.zalando.org/last-handled-configuration");
            assertThat(diffBase).as("the diff-base stored").isInstanceOf(String.class);
            Map<String, Object> stored = Json.parseMap((String) diffBase);
            assertThat(Json.equal(stored.get("spec"), hostile.spec()))
                    .as("the diff-base's spec %s, the object's %s", stored.get("spec"), hostile.spec()).isTrue();
        }
    }
}
