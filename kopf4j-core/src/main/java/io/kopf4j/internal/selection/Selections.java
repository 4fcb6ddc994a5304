package io.kopf4j.internal.selection;

import io.kopf4j.OperatorException;
import io.kopf4j.OperatorSettings;
import io.kopf4j.Resource;
import io.kopf4j.internal.intents.ResourceSelector;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

/**
 * The server-side selections the settings ask for, by resource: {@code settings.watching.labelSelectors}
 * and {@code fieldSelectors}, keyed by a resource as handlers name it ({@code pods},
 * {@code kopfexamples.kopf.dev}, {@code deployments.v1.apps}). A resource without an entry is
 * watched whole, as Kopf watches every resource.
 *
 * <pre>{@code
 * settings.watching.labelSelectors.put("pods", "app=web");
 * Selections selections = Selections.of(settings.watching);
 * Selection pods = selections.of(podsResource);   // labels 'app=web'
 * }</pre>
 */
public final class Selections {
    /** No resource selected: every object of every resource is watched. */
    public static final Selections NONE = new Selections(Map.of());

    private final Map<ResourceSelector, Selection> byResource;

    private Selections(Map<ResourceSelector, Selection> byResource) {
        this.byResource = Map.copyOf(byResource);
    }

    /**
     * @throws OperatorException naming the setting and the entry at fault, e.g. {@code invalid setting
     *     settings.watching.labelSelectors["pods"]: expected ')' after the values of 'env' at 18}
     */
    public static Selections of(OperatorSettings.Watching watching) {
        Set<String> keys = new LinkedHashSet<>(watching.labelSelectors.keySet());
        keys.addAll(watching.fieldSelectors.keySet());
        Map<ResourceSelector, Selection> selections = new LinkedHashMap<>();
        for (String key : keys) {
            String labels = watching.labelSelectors.get(key);
            String fields = watching.fieldSelectors.get(key);
            ResourceSelector resource = resource(key, labels != null ? "labelSelectors" : "fieldSelectors");
            LabelSelector labelSelector = labels == null ? null : parse("labelSelectors", key, () -> LabelSelector.parse(labels));
            FieldSelector fieldSelector = fields == null ? null : parse("fieldSelectors", key, () -> FieldSelector.parse(fields));
            selections.put(resource, new Selection(labelSelector, fieldSelector));
        }
        return new Selections(selections);
    }

    /** The selection of a resource, or null if it is watched whole. */
    public Selection of(Resource resource) {
        for (Map.Entry<ResourceSelector, Selection> entry : byResource.entrySet()) {
            if (entry.getKey().matches(resource)) {
                return entry.getValue();
            }
        }
        return null;
    }

    /** Whether the object is one the operator serves: its resource has no selection, or it is inside it. */
    public boolean serves(Resource resource, Map<String, Object> body) {
        Selection selection = of(resource);
        return selection == null || selection.matches(body);
    }

    public boolean isEmpty() {
        return byResource.isEmpty();
    }

    private static ResourceSelector resource(String key, String setting) {
        ResourceSelector resource;
        try {
            resource = ResourceSelector.parse(key);
        } catch (RuntimeException e) {
            throw invalid(setting, key, e);
        }
        if (resource.multiple()) {
            throw new OperatorException("invalid setting settings.watching." + setting + "[\"" + key + "\"]: names several"
                    + " resources; a selection is of one resource, named as a handler names it (pods, kopfexamples.kopf.dev)");
        }
        return resource;
    }

    private static <T> T parse(String setting, String key, Supplier<T> parser) {
        try {
            return parser.get();
        } catch (IllegalArgumentException e) {
            throw invalid(setting, key, e);
        }
    }

    private static OperatorException invalid(String setting, String key, RuntimeException e) {
        return new OperatorException("invalid setting settings.watching." + setting + "[\"" + key + "\"]: " + e.getMessage(), e);
    }
}
