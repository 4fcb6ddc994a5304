package io.kopf4j.kits;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceList;
import io.fabric8.kubernetes.api.model.ListOptionsBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionStatus;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionVersion;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.kopf4j.OperatorException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Rewrites every object of a custom resource in its CRD's storage version, then lets the CRD
 * forget the versions nothing is stored in any more, so that an old version can be dropped from
 * the CRD. kube-storage-version-migrator's way: each object is read and written back unchanged
 * (a PUT with its resourceVersion; on a conflict, read and written again), which makes the API
 * server store it in the storage version; an object stored so already is not written by etcd (its
 * resourceVersion stays), so a second pass rewrites nothing. Conversions must be served meanwhile.
 *
 * <pre>{@code
 * StorageMigration migration = StorageMigration.of(client, "caches.kopf4j.dev");
 * StorageMigration.Result result = migration.migrate();   // 12 objects in v1, 9 rewritten, 0 failed
 * if (result.failed().isEmpty()) {
 *     migration.forgetOldVersions(result);                // status.storedVersions: [v1alpha1, v1] → [v1]
 * }
 * }</pre>
 */
public final class StorageMigration {
    private static final long PAGE = 500;
    private static final int ATTEMPTS = 5;

    private final KubernetesClient client;
    private final String crdName;

    private StorageMigration(KubernetesClient client, String crdName) {
        this.client = client;
        this.crdName = crdName;
    }

    /**
     * What a pass did.
     *
     * @param crd the CRD's name
     * @param storageVersion the version the objects are stored in now
     * @param objects the objects read
     * @param rewritten those the API server stored anew (they were stored in another version)
     * @param failed the objects not rewritten, each with why ({@code namespace/name: message})
     */
    public record Result(String crd, String storageVersion, int objects, int rewritten, List<String> failed) {
        /** Copies the list. */
        public Result {
            failed = List.copyOf(failed);
        }

        /** {@return e.g. {@code caches.kopf4j.dev: 12 objects in v1, 9 rewritten, 0 failed}} */
        @Override
        public String toString() {
            return crd + ": " + objects + " objects in " + storageVersion + ", " + rewritten + " rewritten, " + failed.size()
                    + " failed";
        }
    }

    /**
     * The migration of one CRD's objects.
     *
     * @param client a client allowed to list and update the objects, and to get and patch the CRD's status
     * @param crdName the CRD's name, {@code <plural>.<group>}
     * @return the migration, not started
     */
    public static StorageMigration of(KubernetesClient client, String crdName) {
        return new StorageMigration(Objects.requireNonNull(client, "client"), Objects.requireNonNull(crdName, "crdName"));
    }

    /**
     * Writes every object back, page by page.
     *
     * @return the counts, and the objects that failed
     * @throws OperatorException if the CRD is not there or its objects cannot be listed
     */
    public Result migrate() {
        CustomResourceDefinition crd = crd();
        String storage = storageVersion(crd);
        ResourceDefinitionContext resource = new ResourceDefinitionContext.Builder()
                .withGroup(crd.getSpec().getGroup()).withVersion(storage).withPlural(crd.getSpec().getNames().getPlural())
                .withKind(crd.getSpec().getNames().getKind()).withNamespaced("Namespaced".equals(crd.getSpec().getScope()))
                .build();
        int objects = 0;
        int rewritten = 0;
        List<String> failed = new ArrayList<>();
        String next = null;
        do {
            GenericKubernetesResourceList page;
            try {
                page = client.genericKubernetesResources(resource).inAnyNamespace()
                        .list(new ListOptionsBuilder().withLimit(PAGE).withContinue(next).build());
            } catch (KubernetesClientException e) {
                throw new OperatorException("cannot list the objects of " + crdName + " in " + storage + ": " + e.getMessage(), e);
            }
            for (GenericKubernetesResource object : page.getItems()) {
                objects++;
                String name = (object.getMetadata().getNamespace() == null ? "" : object.getMetadata().getNamespace() + "/")
                        + object.getMetadata().getName();
                try {
                    rewritten += rewrite(resource, object) ? 1 : 0;
                } catch (KubernetesClientException e) {
                    failed.add(name + ": " + e.getMessage());
                }
            }
            next = page.getMetadata() == null ? null : page.getMetadata().getContinue();
        } while (next != null && !next.isEmpty());
        return new Result(crdName, storage, objects, rewritten, failed);
    }

    /**
     * Sets the CRD's {@code status.storedVersions} to the version a pass without failures migrated to,
     * if it is still the storage version. Then an old version can be removed from the CRD's
     * {@code spec.versions}.
     *
     * @param migrated the pass of {@link #migrate()}
     * @return the stored versions before
     * @throws OperatorException if the pass had failures, the storage version changed since, or the
     *         status cannot be written
     */
    public List<String> forgetOldVersions(Result migrated) {
        if (!migrated.failed().isEmpty()) {
            throw new OperatorException(migrated + ": migrate again before forgetting the old versions");
        }
        String storage = migrated.storageVersion();
        CustomResourceDefinition crd = crd();
        List<String> before = crd.getStatus() == null || crd.getStatus().getStoredVersions() == null ? List.of()
                : List.copyOf(crd.getStatus().getStoredVersions());
        try {
            client.apiextensions().v1().customResourceDefinitions().withName(crdName).editStatus(edited -> {
                if (!storage.equals(storageVersion(edited))) {
                    throw new OperatorException("the storage version of " + crdName + " changed from " + storage + " to "
                            + storageVersion(edited) + " since the migration: migrate again");
                }
                if (edited.getStatus() == null) {
                    edited.setStatus(new CustomResourceDefinitionStatus());
                }
                edited.getStatus().setStoredVersions(List.of(storage));
                return edited;
            });
        } catch (KubernetesClientException e) {
            throw new OperatorException("cannot write the stored versions of " + crdName + ": " + e.getMessage(), e);
        }
        return before;
    }

    /** The PUT of an object as it is; again on a conflict, with what is there now. */
    private boolean rewrite(ResourceDefinitionContext resource, GenericKubernetesResource object) {
        GenericKubernetesResource current = object;
        for (int attempt = 1; ; attempt++) {
            String namespace = current.getMetadata().getNamespace();
            var objects = namespace == null ? client.genericKubernetesResources(resource)
                    : client.genericKubernetesResources(resource).inNamespace(namespace);
            try {
                GenericKubernetesResource written = objects.resource(current).update();
                return !Objects.equals(written.getMetadata().getResourceVersion(), current.getMetadata().getResourceVersion());
            } catch (KubernetesClientException e) {
                if (e.getCode() == 404) {
                    return false;   // deleted meanwhile: nothing stored
                }
                if (e.getCode() != 409 || attempt == ATTEMPTS) {
                    throw e;
                }
                current = objects.withName(current.getMetadata().getName()).get();
                if (current == null) {
                    return false;
                }
            }
        }
    }

    private CustomResourceDefinition crd() {
        CustomResourceDefinition crd;
        try {
            crd = client.apiextensions().v1().customResourceDefinitions().withName(crdName).get();
        } catch (KubernetesClientException e) {
            throw new OperatorException("cannot read the CRD " + crdName + ": " + e.getMessage(), e);
        }
        if (crd == null) {
            throw new OperatorException("no CRD " + crdName + " at " + client.getMasterUrl());
        }
        return crd;
    }

    private static String storageVersion(CustomResourceDefinition crd) {
        return crd.getSpec().getVersions().stream().filter(CustomResourceDefinitionVersion::getStorage)
                .map(CustomResourceDefinitionVersion::getName).findFirst()
                .orElseThrow(() -> new OperatorException("the CRD " + crd.getMetadata().getName() + " has no storage version"));
    }
}
