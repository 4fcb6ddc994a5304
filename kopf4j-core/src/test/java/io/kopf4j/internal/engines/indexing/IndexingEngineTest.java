package io.kopf4j.internal.engines.indexing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kopf4j.Condition;
import io.kopf4j.ErrorsMode;
import io.kopf4j.HandlerDescription.Option;
import io.kopf4j.HandlerFn;
import io.kopf4j.HandlerKind;
import io.kopf4j.Index;
import io.kopf4j.Lifecycles;
import io.kopf4j.Memo;
import io.kopf4j.OperatorSettings;
import io.kopf4j.PermanentError;
import io.kopf4j.Resource;
import io.kopf4j.TemporaryError;
import io.kopf4j.internal.actions.Execution;
import io.kopf4j.internal.engines.posting.EventPoster;
import io.kopf4j.internal.intents.HandlerRegistry;
import io.kopf4j.internal.intents.HandlerSpec;
import io.kopf4j.internal.intents.Specs;
import io.kopf4j.internal.logging.CapturedLines;
import io.kopf4j.internal.reactor.processing.Indexing;
import io.kopf4j.internal.runtime.Metrics;
import io.kopf4j.internal.watching.WatchEvent;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** Kopf's indexing semantics: result interpretation, replacement and removal per object, errors modes. */
class IndexingEngineTest {
    private static final Resource PODS = new Resource("", "v1", "pods", "Pod", "pod", List.of(), List.of(),
            List.of(), true, true, List.of("list", "watch", "patch"));

    private final HandlerRegistry registry = new HandlerRegistry();
    private final Execution execution = new Execution(Lifecycles.allAtOnce(), Duration.ofSeconds(60), null,
            new Metrics(null), null, new EventPoster(new OperatorSettings.Posting(), new Metrics(null), write -> "ignored"), null);

    private static Map<String, Object> pod(String name, String app) {
        Map<String, Object> labels = new HashMap<>();
        if (app != null) {
            labels.put("app", app);
        }
        return Map.of("metadata", Map.of("namespace", "ns", "name", name, "uid", "uid-" + name, "labels", labels));
    }

    private Indexing engine(String id, HandlerFn function) {
        return engine(Specs.spec(HandlerKind.INDEX, List.of("pods"), new Option.Id(id)), function);
    }

    private Indexing engine(HandlerSpec spec, HandlerFn function) {
        spec.register(function, registry);
        return new IndexingEngine(registry, execution, new OperatorSettings().execution.defaultBackoff);
    }

    /** Indexes the object's name under "k", or throws the failure while one is set. */
    private static HandlerFn failingWith(AtomicReference<RuntimeException> failure) {
        return context -> {
            if (failure.get() != null) {
                throw failure.get();
            }
            return Map.of("k", context.name());
        };
    }

    @SuppressWarnings("unchecked")
    private static Map<Object, List<Object>> contents(Indexing indexing, String id) {
        Index<Object, Object> index = (Index<Object, Object>) indexing.index(id);
        Map<Object, List<Object>> contents = new HashMap<>();
        index.forEach(key -> contents.put(key, index.get(key).values().stream().sorted().toList()));
        return contents;
    }

    @Test
    void mapsMergeTheirKeysAndOtherValuesGoUnderTheNullKey() {
        Indexing indexing = engine("byApp", context -> context.labels().containsKey("app")
                ? Map.of(context.labels().get("app"), context.name()) : context.name());
        indexing.index(PODS, new WatchEvent(null, pod("a", "web")), new Memo());
        indexing.index(PODS, new WatchEvent(null, pod("b", "web")), new Memo());
        indexing.index(PODS, new WatchEvent(null, pod("c", null)), new Memo());

        Map<Object, List<Object>> expected = new HashMap<>();
        expected.put("web", List.of("a", "b"));
        expected.put(null, List.of("c"));
        assertThat(contents(indexing, "byApp")).isEqualTo(expected);
        assertThat(indexing.index("byApp").containsKey(null)).isTrue();
        assertThat(((Index<Object, Object>) indexing.index("byApp")).get("db").isEmpty()).isTrue();
    }

    @Test
    void anObjectsNewResultReplacesItsValuesAndDeletionRemovesThem() {
        Indexing indexing = engine("byApp", context -> Map.of(context.labels().get("app"), context.name()));
        indexing.index(PODS, new WatchEvent(null, pod("a", "web")), new Memo());
        indexing.index(PODS, new WatchEvent("MODIFIED", pod("a", "db")), new Memo());
        assertThat(contents(indexing, "byApp")).isEqualTo(Map.of("db", List.of("a")));

        indexing.index(PODS, new WatchEvent("DELETED", pod("a", "db")), new Memo());
        assertThat(contents(indexing, "byApp")).isEmpty();
    }

    @Test
    void nullKeepsThePreviousValues() {
        AtomicReference<Object> result = new AtomicReference<>(Map.of("k", "v1"));
        Indexing indexing = engine("idx", context -> result.get());
        indexing.index(PODS, new WatchEvent(null, pod("a", "web")), new Memo());
        result.set(null);
        indexing.index(PODS, new WatchEvent("MODIFIED", pod("a", "web")), new Memo());
        assertThat(contents(indexing, "idx")).isEqualTo(Map.of("k", List.of("v1")));
    }

    @Test
    void nullValuesInMapsAreIndexed() {
        Map<String, Object> placeholder = new HashMap<>();
        placeholder.put("k", null);
        Indexing indexing = engine("idx", context -> placeholder);
        indexing.index(PODS, new WatchEvent(null, pod("a", "web")), new Memo());
        Map<Object, List<Object>> expected = new HashMap<>();
        expected.put("k", java.util.Collections.singletonList(null));
        assertThat(indexing.index("idx").size()).isEqualTo(1);
        assertThat(((Index<Object, Object>) indexing.index("idx")).get("k").values()).isEqualTo(expected.get("k"));
    }

    @Test
    void anObjectThatStopsMatchingTheFiltersLosesItsValues() {
        Indexing indexing = engine(Specs.spec(HandlerKind.INDEX, List.of("pods"), new Option.Id("web"), new Option.Label("app", new Condition.Exact("web"))),
                context -> context.name());
        indexing.index(PODS, new WatchEvent(null, pod("a", "db")), new Memo());
        assertThat(contents(indexing, "web")).isEqualTo(Map.of());
        Map<Object, List<Object>> expected = new HashMap<>();
        expected.put(null, List.of("a"));
        indexing.index(PODS, new WatchEvent("MODIFIED", pod("a", "web")), new Memo());
        assertThat(contents(indexing, "web")).isEqualTo(expected);

        indexing.index(PODS, new WatchEvent("MODIFIED", pod("a", "db")), new Memo());
        assertThat(contents(indexing, "web")).isEmpty();
    }

    @Test
    void anIgnoredErrorKeepsTheObjectsOldValues() {
        AtomicReference<RuntimeException> failure = new AtomicReference<>();
        Indexing indexing = engine("idx", failingWith(failure));
        indexing.index(PODS, new WatchEvent(null, pod("a", "web")), new Memo());
        failure.set(new IllegalStateException("boom"));
        indexing.index(PODS, new WatchEvent("MODIFIED", pod("a", "web")), new Memo());
        assertThat(contents(indexing, "idx")).isEqualTo(Map.of("k", List.of("a")));
    }

    @Test
    void aPermanentErrorRemovesTheValuesAndSkipsTheObjectForGood() {
        AtomicReference<RuntimeException> failure = new AtomicReference<>();
        int[] calls = {0};
        Indexing indexing = engine("idx", context -> {
            calls[0]++;
            return failingWith(failure).call(context);
        });
        indexing.index(PODS, new WatchEvent(null, pod("a", "web")), new Memo());
        failure.set(new PermanentError("no"));
        indexing.index(PODS, new WatchEvent("MODIFIED", pod("a", "web")), new Memo());
        assertThat(contents(indexing, "idx")).isEmpty();

        failure.set(null);
        indexing.index(PODS, new WatchEvent("MODIFIED", pod("a", "web")), new Memo());
        assertThat(calls[0]).isEqualTo(2);
        assertThat(contents(indexing, "idx")).isEmpty();
        indexing.index(PODS, new WatchEvent(null, pod("b", "web")), new Memo());
        assertThat(contents(indexing, "idx")).isEqualTo(Map.of("k", List.of("b")));
    }

    @Test
    void aTemporaryErrorRemovesTheValuesAndSkipsTheObjectForItsDelay() {
        AtomicReference<RuntimeException> failure = new AtomicReference<>();
        Indexing indexing = engine("idx", failingWith(failure));
        indexing.index(PODS, new WatchEvent(null, pod("a", "web")), new Memo());
        failure.set(new TemporaryError("later", Duration.ofHours(1)));
        indexing.index(PODS, new WatchEvent("MODIFIED", pod("a", "web")), new Memo());
        failure.set(null);
        indexing.index(PODS, new WatchEvent("MODIFIED", pod("a", "web")), new Memo());
        assertThat(contents(indexing, "idx")).isEmpty();

        failure.set(new TemporaryError("again", Duration.ZERO));
        indexing.index(PODS, new WatchEvent(null, pod("b", "web")), new Memo());
        failure.set(null);
        indexing.index(PODS, new WatchEvent("MODIFIED", pod("b", "web")), new Memo());
        assertThat(contents(indexing, "idx")).isEqualTo(Map.of("k", List.of("b")));
    }

    @Test
    void errorsModePermanentTurnsArbitraryErrorsIntoRemoval() {
        AtomicReference<RuntimeException> failure = new AtomicReference<>();
        Indexing indexing = engine(Specs.spec(HandlerKind.INDEX, List.of("pods"), new Option.Id("idx"), new Option.Errors(ErrorsMode.PERMANENT)),
                failingWith(failure));
        indexing.index(PODS, new WatchEvent(null, pod("a", "web")), new Memo());
        failure.set(new IllegalStateException("boom"));
        indexing.index(PODS, new WatchEvent("MODIFIED", pod("a", "web")), new Memo());
        assertThat(contents(indexing, "idx")).isEmpty();
    }

    @Test
    void logLinesNameTheFunctionAnIndexerAsKopfDoes() {
        AtomicReference<RuntimeException> failure = new AtomicReference<>();
        Indexing indexing = engine(Specs.spec(HandlerKind.INDEX, List.of("pods"), new Option.Id("byName"), new Option.Errors(ErrorsMode.TEMPORARY)),
                failingWith(failure));
        try (CapturedLines lines = new CapturedLines("kopf.objects")) {
            indexing.index(PODS, new WatchEvent(null, pod("a", "web")), new Memo());
            failure.set(new IllegalStateException("boom"));
            indexing.index(PODS, new WatchEvent("MODIFIED", pod("a", "web")), new Memo());
            assertThat(lines.messages()).containsExactly("[ns/a] Indexer 'byName' succeeded.",
                    "[ns/a] Indexer 'byName' failed with an exception and will try again in 60 seconds: boom");
        }
    }

    @Test
    void unknownIndexIdsFailNamingTheKnownOnes() {
        Indexing indexing = engine("idx", context -> Map.of("k", context.name()));
        assertThatThrownBy(() -> indexing.index("other")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'other'").hasMessageContaining("idx");
    }
}
