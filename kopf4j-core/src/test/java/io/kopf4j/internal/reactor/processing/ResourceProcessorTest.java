package io.kopf4j.internal.reactor.processing;

import static org.assertj.core.api.Assertions.assertThat;

import io.kopf4j.Body;
import io.kopf4j.Lifecycles;
import io.kopf4j.Memo;
import io.kopf4j.On;
import io.kopf4j.OperatorSettings;
import io.kopf4j.Patch;
import io.kopf4j.Resource;
import io.kopf4j.internal.actions.Execution;
import io.kopf4j.internal.clients.ObjectPatching;
import io.kopf4j.internal.engines.posting.EventPoster;
import io.kopf4j.internal.intents.HandlerRegistry;
import io.kopf4j.internal.intents.HandlerScanner;
import io.kopf4j.internal.reactor.queueing.Pressure;
import io.kopf4j.internal.runtime.Metrics;
import io.kopf4j.internal.structs.Json;
import io.kopf4j.internal.watching.WatchEvent;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/** Kopf's processing of one object's events, with a fake API that records the patches. */
class ResourceProcessorTest {
    private static final Resource KOPFEXAMPLES = new Resource("kopf.dev", "v1", "kopfexamples", "KopfExample",
            "kopfexample", List.of(), List.of(), List.of("status"), true, true, List.of("list", "watch", "patch"));

    private final OperatorSettings settings = new OperatorSettings();
    private final FakeApi api = new FakeApi();
    private final EventPoster events = new EventPoster(settings.posting, new Metrics(null), write -> "ignored");

    private ResourceProcessor processor(Class<?> handlers) {
        return processor(handlers, Sharding.ALL);
    }

    private ResourceProcessor processor(Class<?> handlers, Sharding sharding) {
        HandlerRegistry registry = new HandlerRegistry();
        HandlerScanner.scan(handlers, registry);
        Execution execution = new Execution(Lifecycles.asap(), Duration.ofSeconds(60), settings.persistence.progressStorage,
                new Metrics(null), null, events, null);
        return new ResourceProcessor(KOPFEXAMPLES, registry, settings, new Memo(), api, events, execution, Spawning.NONE, Childing.NONE,
                Indexing.NONE, IndexesBarrier.OPEN, sharding, SelectionExits.NONE);
    }

    private void object(Map<String, Object> spec) {
        Map<String, Object> metadata = new LinkedHashMap<>(Map.of("uid", "u1", "name", "ex", "namespace", "ns",
                "resourceVersion", "1"));
        api.object = new LinkedHashMap<>(Map.of("apiVersion", "kopf.dev/v1", "kind", "KopfExample", "metadata", metadata,
                "spec", new LinkedHashMap<>(spec)));
    }

    public static class CreateAndResume {
        static final List<String> CALLS = new ArrayList<>();

        @On.Create("kopfexamples")
        public String create() {
            CALLS.add("create");
            return "created";
        }

        @On.Resume("kopfexamples")
        public void resume() {
            CALLS.add("resume");
        }
    }

    @Test
    void anObjectListedAtStartIsCreatedWithoutResuming() throws InterruptedException {
        CreateAndResume.CALLS.clear();
        object(Map.of("size", 1));
        ResourceProcessor processor = processor(CreateAndResume.class);
        String version = processor.process(api.event(null), Pressure.NONE, null);
        assertThat(CreateAndResume.CALLS).containsExactly("create");
        assertThat(version).isEqualTo("2");
        Map<String, Object> patch = api.patches.get(0);
        assertThat(patch).containsEntry("status", Map.of("create", "created"));
        assertThat(Json.compact(patch)).contains("last-handled-configuration");
    }

    @Test
    void anObjectOfAnotherShardIsNotTouchedAndIsSeenAfreshWhenItComesBack() throws InterruptedException {
        CreateAndResume.CALLS.clear();
        object(Map.of("size", 1));
        AtomicBoolean owned = new AtomicBoolean(false);
        ResourceProcessor processor = processor(CreateAndResume.class, key -> owned.get());
        processor.process(api.event(null), Pressure.NONE, null);
        assertThat(CreateAndResume.CALLS).as("no handler").isEmpty();
        assertThat(api.patches).as("no finalizer, no state").isEmpty();
        assertThat(processor.objects()).as("not remembered").isZero();
        owned.set(true);
        processor.process(api.event(null), Pressure.NONE, null);
        assertThat(CreateAndResume.CALLS).containsExactly("create");
        owned.set(false);
        processor.process(api.event("MODIFIED"), Pressure.NONE, null);
        assertThat(processor.objects()).as("forgotten once it moved away").isZero();
    }

    public static class StatusPhase {
        static final List<Object> PHASES = new ArrayList<>();

        @On.Field(value = "kopfexamples", field = "status.phase")
        public void phase(Object current) {
            PHASES.add(current);
        }
    }

    @Test
    void aHandlerOfAStatusFieldSeesItsChanges() throws InterruptedException {
        StatusPhase.PHASES.clear();
        object(Map.of("size", 1));
        ResourceProcessor processor = processor(StatusPhase.class);
        processor.process(api.event("ADDED"), Pressure.NONE, null);
        api.object.put("status", new LinkedHashMap<>(Map.of("phase", "Running")));
        processor.process(api.event("MODIFIED"), Pressure.NONE, null);
        assertThat(StatusPhase.PHASES).containsExactly("Running");
    }

    public static class Watching {
        static final List<Object> SIZES = new ArrayList<>();

        @On.Event("kopfexamples")
        public void event(Body body) {
            SIZES.add(((Map<?, ?>) body.get("spec")).get("size"));
        }

        @On.Update("kopfexamples")
        public void update() {
        }
    }

    @Test
    void eventHandlersRunAtOnceWhileChangeHandlersAwaitConsistency() throws InterruptedException {
        Watching.SIZES.clear();
        object(Map.of("size", 1));
        ResourceProcessor processor = processor(Watching.class);
        String ours = processor.process(api.event("ADDED"), Pressure.NONE, null);
        int patches = api.patches.size();
        api.object.put("spec", new LinkedHashMap<>(Map.of("size", 2)));
        Pressure newerEvent = new Pressure() {
            @Override
            public Duration sleep(Duration duration) {
                return duration;
            }
        };
        processor.process(api.event("MODIFIED"), newerEvent, Instant.now().plusSeconds(5));
        assertThat(Watching.SIZES).containsExactly(1, 2);
        assertThat(api.patches).as("change handling waits for our own patch " + ours + " to come back").hasSize(patches);
    }

    @Test
    void theEventOfOurOwnIntermediateStateNeverRunsTheHandlersAgain() throws InterruptedException {
        CreateAndResume.CALLS.clear();
        api.statusFirst = true;
        object(Map.of("size", 1));
        ResourceProcessor processor = processor(CreateAndResume.class);
        processor.process(api.event("ADDED"), Pressure.NONE, null);
        assertThat(api.intermediate).as("the results, without the diff-base yet").containsKey("status");

        // Its event arrives after the consistency deadline (a lagging watch) or in a new worker (none).
        processor.process(new WatchEvent("MODIFIED", api.intermediate), Pressure.NONE, null);
        processor.process(api.event("MODIFIED"), Pressure.NONE, null);

        assertThat(CreateAndResume.CALLS).containsExactly("create");
    }

    /** A delete handler: the objects get the finalizer before anything else. */
    public static class CreateAndDelete {
        static final List<String> CALLS = new ArrayList<>();

        @On.Create("kopfexamples")
        public void create() {
            CALLS.add("create");
        }

        @On.Delete("kopfexamples")
        public void delete() {
            CALLS.add("delete");
        }
    }

    @Test
    void aFunctionLeftByAStaleListingThatTheObjectAlreadySatisfiesDoesNotStallTheHandling() throws InterruptedException {
        CreateAndDelete.CALLS.clear();
        api.conflictOnStaleFunctions = true;
        object(Map.of("size", 1));
        ResourceProcessor processor = processor(CreateAndDelete.class);
        WatchEvent added = api.event("ADDED");
        processor.process(added, Pressure.NONE, null);
        assertThat(api.patches).as("the finalizer is added").hasSize(1);

        // A re-list (after a 410) taken before our finalizer's PATCH shows the object without it: adding it
        // again conflicts with the newer object, and the function is carried to the next cycle.
        processor.process(new WatchEvent(null, added.object()), Pressure.NONE, Instant.now().plusSeconds(5));
        // Our finalizer's own event: the carried function has nothing left to do, so the handlers run.
        processor.process(api.event("MODIFIED"), Pressure.NONE, null);

        assertThat(CreateAndDelete.CALLS).containsExactly("create");
    }
}
