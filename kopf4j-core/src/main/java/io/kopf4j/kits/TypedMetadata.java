package io.kopf4j.kits;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * fabric8's typed {@link ObjectMeta} of an object, changed as Kopf changes the models of the
 * kubernetes client. The labels and owner references are set as mutable copies: fabric8 keeps
 * whatever list or map it was given, e.g. an immutable {@code List.of(...)}.
 */
final class TypedMetadata implements ObjectMetadata {
    private final ObjectMeta metadata;

    TypedMetadata(ObjectMeta metadata) {
        this.metadata = metadata;
    }

    /** The object's metadata, created if it has none, as Kopf creates {@code V1ObjectMeta}. */
    static TypedMetadata of(HasMetadata object) {
        if (object.getMetadata() == null) {
            object.setMetadata(new ObjectMeta());
        }
        return new TypedMetadata(object.getMetadata());
    }

    @Override
    public void appendOwnerReference(Map<String, Object> reference) {
        List<OwnerReference> references = ownerReferences();
        Object uid = reference.get("uid");
        if (references.stream().noneMatch(existing -> Objects.equals(existing.getUid(), uid))) {
            references.add(new OwnerReferenceBuilder()
                    .withApiVersion((String) reference.get("apiVersion"))
                    .withKind((String) reference.get("kind"))
                    .withName((String) reference.get("name"))
                    .withUid((String) uid)
                    .withController((Boolean) reference.get("controller"))
                    .withBlockOwnerDeletion((Boolean) reference.get("blockOwnerDeletion"))
                    .build());
        }
    }

    @Override
    public void removeOwnerReference(String uid) {
        ownerReferences().removeIf(existing -> Objects.equals(existing.getUid(), uid));
    }

    @Override
    public void label(Map<String, String> labels, boolean forced) {
        Map<String, String> existing = metadata.getLabels() == null ? new LinkedHashMap<>()
                : new LinkedHashMap<>(metadata.getLabels());
        labels.forEach((key, value) -> {
            if (forced || !existing.containsKey(key)) {
                existing.put(key, value);
            }
        });
        metadata.setLabels(existing);
    }

    @Override
    public void harmonizeNaming(String name, boolean forced, boolean strict) {
        boolean noname = metadata.getName() == null && metadata.getGenerateName() == null;
        if (forced || noname) {
            metadata.setName(strict ? name : null);
            metadata.setGenerateName(strict ? null : name + "-");
        }
    }

    @Override
    public void adjustNamespace(String namespace, boolean forced) {
        if (forced || metadata.getNamespace() == null) {
            metadata.setNamespace(namespace);
        }
    }

    private List<OwnerReference> ownerReferences() {
        List<OwnerReference> references = metadata.getOwnerReferences() == null ? new ArrayList<>()
                : new ArrayList<>(metadata.getOwnerReferences());
        metadata.setOwnerReferences(references);
        return references;
    }
}
