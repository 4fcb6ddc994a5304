package io.kopf4j.envtest;

import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.UUID;

/**
 * A namespace with a unique name, created at once and deleted on close, so that tests sharing a
 * cluster do not see each other's objects.
 *
 * <pre>{@code
 * try (TemporaryNamespace namespace = new TemporaryNamespace(cluster.client(), "minimal")) {
 *     ... namespace.name() ...
 * }
 * }</pre>
 */
public final class TemporaryNamespace implements AutoCloseable {
    private final KubernetesClient client;
    private final String name;

    /**
     * Creates a namespace of a new name.
     *
     * @param client an admin client, e.g. {@code cluster.client()}; not closed here
     * @param prefix the name's start, e.g. {@code "minimal"}: the name is {@code minimal-} and 8 random hex digits
     */
    public TemporaryNamespace(KubernetesClient client, String prefix) {
        this.client = client;
        this.name = prefix + "-" + UUID.randomUUID().toString().substring(0, 8);
        client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(name).endMetadata().build()).create();
    }

    /** {@return the namespace's name, e.g. {@code "minimal-3f2a9c1e"}} */
    public String name() {
        return name;
    }

    /** Deletes the namespace (and so its objects); the API server finishes that in the background. */
    @Override
    public void close() {
        client.namespaces().withName(name).delete();
    }

    @Override
    public String toString() {
        return name;
    }
}
