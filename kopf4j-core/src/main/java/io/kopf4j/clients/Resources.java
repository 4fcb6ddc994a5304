package io.kopf4j.clients;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceList;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.FilterWatchListDeletable;
import io.fabric8.kubernetes.client.dsl.MixedOperation;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;

/**
 * fabric8's generic (schema-less) endpoints for a discovered resource, for occasional requests
 * (the watches and the writes go through {@link ApiRequest}). Namespaces are always explicit:
 * fabric8 would otherwise fill in the kubeconfig's default namespace.
 */
public final class Resources {
    private Resources() {
    }

    /** The collection of one namespace, or every namespace when {@code namespace} is null. */
    public static FilterWatchListDeletable<GenericKubernetesResource, GenericKubernetesResourceList,
            Resource<GenericKubernetesResource>> collection(KubernetesClient client, io.kopf4j.Resource resource, String namespace) {
        MixedOperation<GenericKubernetesResource, GenericKubernetesResourceList, Resource<GenericKubernetesResource>> all =
                all(client, resource);
        if (!resource.namespaced()) {
            return all;
        }
        return namespace == null ? all.inAnyNamespace() : all.inNamespace(namespace);
    }

    private static MixedOperation<GenericKubernetesResource, GenericKubernetesResourceList, Resource<GenericKubernetesResource>> all(
            KubernetesClient client, io.kopf4j.Resource resource) {
        return client.genericKubernetesResources(new ResourceDefinitionContext.Builder()
                .withGroup(resource.group())
                .withVersion(resource.version())
                .withPlural(resource.plural())
                .withKind(resource.kind())
                .withNamespaced(resource.namespaced())
                .build());
    }
}
