package io.kopf4j.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.kopf4j.On;
import io.kopf4j.Spec;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListSet;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.IntStream;

/**
 * The load of the fault tests: KopfExamples created, changed and deleted through the admin's own
 * client (each change retried until the API server takes it, across outages), handlers that store
 * the step of the spec they handled, and the check of the outcome: every object handled at its
 * latest step (nothing lost), and how often each handler ran per object (nothing handled twice).
 *
 * <pre>{@code
 * FaultLoad load = new FaultLoad(fixture);
 * load.create("ex-1");
 * load.update("ex-1");
 * load.awaitHandled(Duration.ofSeconds(60));
 * assertThat(FaultLoad.calls(runner.output(), "update")).containsEntry("ex-1", 1);
 * }</pre>
 */
final class FaultLoad {
    private static final String DIFF_BASE = "kopf.zalando.org/last-handled-configuration";
    private static final Duration CHANGE_TIMEOUT = Duration.ofSeconds(90);
    private static final Pattern SUCCEEDED = Pattern.compile("\\[[^/\\]]+/([^\\]]+)\\] Handler '([^']+)' succeeded\\.");

    /**
     * Create and update handlers that return the step of the spec they handled, and a delete handler
     * (so a finalizer). Their resource names its group, as an operator's would: the discovery then
     * reads that group only.
     */
    public static class Handlers {
        @On.Create("kopfexamples.kopf.dev")
        public Object create(Spec spec) {
            return spec.get("step");
        }

        @On.Update("kopfexamples.kopf.dev")
        public Object update(Spec spec) {
            return spec.get("step");
        }

        @On.Delete("kopfexamples.kopf.dev")
        public void delete() {
            // Its finalizer holds a deleted object until the operator has seen the deletion.
        }
    }

    private final KopfExamples examples;
    private final Map<String, Integer> steps = new ConcurrentHashMap<>();
    private final Set<String> deleted = new ConcurrentSkipListSet<>();
    private final AtomicInteger done = new AtomicInteger();

    FaultLoad(OperatorFixture fixture) {
        this.examples = fixture.examples();
    }

    /** Creates the object at step 0. */
    void create(String name) {
        retried(() -> {
            try {
                examples.create(name, Map.of("step", 0));
            } catch (KubernetesClientException e) {
                if (e.getCode() != 409) {   // 409: an earlier attempt was stored, its answer lost
                    throw e;
                }
            }
        });
        steps.put(name, 0);
        done.incrementAndGet();
    }

    /** Moves the object's spec to its next step. */
    void update(String name) {
        int step = steps.get(name) + 1;
        retried(() -> examples.patch(name, Map.of("spec", Map.of("step", step))));
        steps.put(name, step);
        done.incrementAndGet();
    }

    /** Deletes the object (its finalizer keeps it until the operator has handled the deletion). */
    void delete(String name) {
        retried(() -> {
            try {
                examples.delete(name);
            } catch (KubernetesClientException e) {
                if (e.getCode() != 404) {
                    throw e;
                }
            }
        });
        steps.remove(name);
        deleted.add(name);
        done.incrementAndGet();
    }

    /** Names {@code prefix-00}, {@code prefix-01}, and so on: {@code count} of them. */
    static List<String> names(String prefix, int count) {
        return IntStream.range(0, count).mapToObj(i -> "%s-%02d".formatted(prefix, i)).toList();
    }

    /** The objects created and, after every second one, the next of those updated: changes to make while a fault comes. */
    List<Runnable> createdAndUpdated(List<String> created, List<String> updated) {
        List<Runnable> changes = new ArrayList<>();
        for (int i = 0; i < created.size(); i++) {
            String name = created.get(i);
            changes.add(() -> create(name));
            if (i % 2 == 0 && i / 2 < updated.size()) {
                String changed = updated.get(i / 2);
                changes.add(() -> update(changed));
            }
        }
        return changes;
    }

    /** When a fault came and went, and when everything was handled after it: {@link System#nanoTime()} readings. */
    record FaultTimes(int changesBefore, long began, long ended, long handled) {
        double lasted() {
            return seconds(began, ended);
        }

        double recovered() {
            return seconds(ended, handled);
        }
    }

    /**
     * Makes the changes in a thread of their own; once {@code before} of them are made, brings the
     * fault and ends it by {@code recovery} (each returns when it is done), while the changes wait
     * for the API server; then waits until every change is made and handled.
     */
    FaultTimes changeThrough(List<Runnable> changes, int before, Runnable fault, Runnable recovery, Duration wait) throws Exception {
        int start = done();
        CompletableFuture<Void> changing = inBackground(changes);
        await().atMost(wait).until(() -> done() >= start + before);
        int changesBefore = done() - start;
        long began = System.nanoTime();
        fault.run();
        recovery.run();
        long ended = System.nanoTime();
        changing.get(wait.toSeconds(), TimeUnit.SECONDS);
        awaitHandled(wait);
        return new FaultTimes(changesBefore, began, ended, System.nanoTime());
    }

    /** Makes the changes one after the other in a thread of their own. */
    CompletableFuture<Void> inBackground(List<Runnable> changes) {
        return CompletableFuture.runAsync(() -> changes.forEach(Runnable::run), runnable -> Thread.ofVirtual().start(runnable));
    }

    /** How many changes are made so far. */
    int done() {
        return done.get();
    }

    /**
     * Waits until every object is handled at its latest step, its result stored (by the create or
     * the update handler, whichever handled the step) and its diff-base at that step, and every
     * deleted object is gone (its deletion handled, the finalizer released).
     */
    void awaitHandled(Duration wait) {
        await().atMost(wait).untilAsserted(() -> {
            Map<String, GenericKubernetesResource> present = new TreeMap<>();
            examples.list().forEach(object -> present.put(object.getMetadata().getName(), object));
            assertThat(deleted).as("deleted objects gone").noneMatch(present::containsKey);
            steps.forEach((name, step) -> {
                GenericKubernetesResource object = present.get(name);
                assertThat(object).as(name).isNotNull();
                assertThat(handledStep(object)).as("%s: the step of the result stored", name).isEqualTo(step);
                assertThat(object.getMetadata().getAnnotations()).as(name).containsKey(DIFF_BASE);
                assertThat(object.getMetadata().getAnnotations().get(DIFF_BASE)).as("%s: the diff-base", name)
                        .contains("\"step\":" + step + "}");
            });
        });
    }

    /** The objects present now, by name, with their latest step. */
    Map<String, Integer> steps() {
        return new TreeMap<>(steps);
    }

    /** The step that the latest handler stored: the update's result if any, else the creation's. */
    private static Object handledStep(GenericKubernetesResource object) {
        if (!(object.getAdditionalProperties().get("status") instanceof Map<?, ?> status)) {
            return null;
        }
        return status.containsKey("update") ? status.get("update") : status.get("create");
    }

    /**
     * How often the handler succeeded per object, from Kopf's {@code [namespace/name] Handler 'id'
     * succeeded.} lines of an operator's output.
     */
    static Map<String, Integer> calls(String output, String handler) {
        Map<String, Integer> calls = new TreeMap<>();
        Matcher matcher = SUCCEEDED.matcher(output);
        while (matcher.find()) {
            if (matcher.group(2).equals(handler)) {
                calls.merge(matcher.group(1), 1, Integer::sum);
            }
        }
        return calls;
    }

    /** Asserts that every object present was created once, and updated at most once (not if its creation saw the update). */
    void assertHandledOnce(String output) {
        assertRanOnceFor(output, "create", steps.keySet());
        assertRanAtMostOnce(output, "update");
    }

    /** Asserts that the handler succeeded exactly once for each of the objects, and for no other. */
    static void assertRanOnceFor(String output, String handler, Collection<String> names) {
        assertThat(calls(output, handler)).as("'%s' handled per object", handler)
                .containsOnlyKeys(names).allSatisfy((name, calls) -> assertThat(calls).as(name).isEqualTo(1));
    }

    /** Asserts that the handler succeeded at most once per object (none if another handler handled the change). */
    private static void assertRanAtMostOnce(String output, String handler) {
        assertThat(calls(output, handler)).as("'%s' handled per object", handler)
                .allSatisfy((name, calls) -> assertThat(calls).as(name).isEqualTo(1));
    }

    /** Handler runs beyond the first, per handler, over all objects: the re-runs. */
    static int reruns(String output, String... handlers) {
        int reruns = 0;
        for (String handler : handlers) {
            reruns += calls(output, handler).values().stream().mapToInt(count -> count - 1).sum();
        }
        return reruns;
    }

    /** Seconds between two {@link System#nanoTime()} readings, to the millisecond. */
    static double seconds(long fromNanos, long toNanos) {
        return TimeUnit.NANOSECONDS.toMillis(toNanos - fromNanos) / 1000.0;
    }

    /** Tries the change until the API server takes it: while it is away, the attempts fail or time out. */
    private static void retried(Runnable change) {
        await().atMost(CHANGE_TIMEOUT).pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(200))
                .ignoreException(KubernetesClientException.class)
                .until(() -> {
                    change.run();
                    return true;
                });
    }
}
