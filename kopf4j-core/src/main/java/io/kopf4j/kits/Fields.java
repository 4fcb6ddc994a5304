package io.kopf4j.kits;

import com.fasterxml.jackson.databind.BeanDescription;
import com.fasterxml.jackson.databind.introspect.AnnotatedMember;
import com.fasterxml.jackson.databind.introspect.BeanPropertyDefinition;
import io.fabric8.kubernetes.api.model.KubernetesResource;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.kopf4j.internal.structs.Json;
import io.kopf4j.internal.structs.K8sObjects;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Fields of objects by their JSON names, in JSON maps and in fabric8's typed models alike, as Kopf's
 * {@code resolve_obj} reads the models of the kubernetes client by their schema keys: e.g.
 * {@code spec.template} of a {@code StatefulSet} is its {@code getSpec().getTemplate()}, and of a
 * {@code GenericKubernetesResource} the maps in its additional properties. Jackson's introspection
 * maps the JSON names to fabric8's accessors, as its serialization does, so that no name is guessed here.
 *
 * <pre>{@code
 * Object template = Fields.resolve(statefulSet, List.of("spec", "template"));   // a PodTemplateSpec
 * ObjectMeta metadata = Fields.metadata((PodTemplateSpec) template);            // created if absent
 * }</pre>
 */
final class Fields {
    private Fields() {
    }

    /**
     * The value at the path, or null where a step is absent, null, or not a structure (a map or a
     * fabric8 model): Kopf does not dive into non-existent fields or non-dicts.
     */
    static Object resolve(Object root, List<String> path) {
        Object current = root;
        for (String key : path) {
            current = switch (current) {
                case Map<?, ?> map -> map.get(key);
                case KubernetesResource typed -> property(typed, key).flatMap(property -> value(property, typed))
                        .or(() -> additional(typed, key)).orElse(null);
                case null, default -> null;
            };
        }
        return current;
    }

    /**
     * The typed {@code metadata} of a fabric8 model that is a part of an object (e.g. a
     * {@code PodTemplateSpec}), created and set if it has none.
     *
     * @throws IllegalArgumentException if the model has no {@code ObjectMeta metadata}
     */
    static ObjectMeta metadata(KubernetesResource typed) {
        BeanPropertyDefinition property = property(typed, "metadata")
                .filter(found -> found.getRawPrimaryType() == ObjectMeta.class && found.hasSetter())
                .orElseThrow(() -> K8sObjects.unsupported(typed));
        if (value(property, typed).isEmpty()) {
            property.getSetter().setValue(typed, new ObjectMeta());
        }
        return (ObjectMeta) value(property, typed).orElseThrow();
    }

    private static Optional<BeanPropertyDefinition> property(KubernetesResource typed, String name) {
        return description(typed).findProperties().stream()
                .filter(property -> property.getName().equals(name) && property.hasGetter())
                .findFirst();
    }

    private static Optional<Object> value(BeanPropertyDefinition property, Object typed) {
        return Optional.ofNullable(property.getGetter().getValue(typed));
    }

    /** A field that the model does not declare: fabric8 keeps those in its {@code additionalProperties}. */
    private static Optional<Object> additional(KubernetesResource typed, String name) {
        AnnotatedMember anyGetter = description(typed).findAnyGetter();
        return anyGetter != null && anyGetter.getValue(typed) instanceof Map<?, ?> additional
                ? Optional.ofNullable(additional.get(name)) : Optional.empty();
    }

    private static BeanDescription description(Object typed) {
        return Json.mapper().getDeserializationConfig().introspect(Json.mapper().constructType(typed.getClass()));
    }
}
