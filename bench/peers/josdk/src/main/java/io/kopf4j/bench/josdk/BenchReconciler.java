package io.kopf4j.bench.josdk;

import io.javaoperatorsdk.operator.api.reconciler.Cleaner;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.DeleteControl;
import io.javaoperatorsdk.operator.api.reconciler.Reconciler;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * The load benchmark's workload (bench/BenchHandlers.java for kopf4j) as a JOSDK reconciler: when the
 * object is new, {@code status.create = {generation: spec.generation}}; when its spec has changed since,
 * {@code status.update = {generation: spec.generation}}; nothing to clean up at deletion, but being a
 * {@link Cleaner} gives every object JOSDK's finalizer, as the delete handler gives Kopf's.
 *
 * <p>JOSDK calls {@code reconcile} for every event that changes {@code metadata.generation} (and once per
 * object at start) and keeps no record of the spec last handled, as Kopf does in an annotation, so the
 * reconciler decides from the status it wrote: the spec has changed when {@code spec.generation} is not the
 * generation of its newest result. Both results are sent in each status patch: JOSDK patches the status
 * with server-side apply (its default), which removes the fields of its own that a patch leaves out.
 */
public class BenchReconciler implements Reconciler<KopfExample>, Cleaner<KopfExample> {
    @Override
    public UpdateControl<KopfExample> reconcile(KopfExample example, Context<KopfExample> context) {
        Object generation = example.getSpec() == null ? null : example.getSpec().get("generation");
        Map<String, Object> status = example.getStatus() == null ? new LinkedHashMap<>() : new LinkedHashMap<>(example.getStatus());
        if (!status.containsKey("create")) {
            status.put("create", Map.of("generation", generation));
        } else if (!Objects.equals(generation, newestResult(status))) {
            status.put("update", Map.of("generation", generation));
        } else {
            return UpdateControl.noUpdate();
        }
        example.setStatus(status);
        return UpdateControl.patchStatus(example);
    }

    @Override
    public DeleteControl cleanup(KopfExample example, Context<KopfExample> context) {
        return DeleteControl.defaultDelete();
    }

    private static Object newestResult(Map<String, Object> status) {
        Object result = status.containsKey("update") ? status.get("update") : status.get("create");
        return result instanceof Map<?, ?> map ? map.get("generation") : null;
    }
}
