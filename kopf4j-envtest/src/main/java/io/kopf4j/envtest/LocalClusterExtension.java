package io.kopf4j.envtest;

import java.util.Locale;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * JUnit 5 extension: one {@link LocalCluster} for all test classes of the test run (it is stopped
 * when the run ends), and a fresh {@link TemporaryNamespace} per test that asks for one. For an
 * operator under test as well, see kopf4j-testing's {@code @KopfTest}, which shares the same cluster.
 *
 * <pre>{@code
 * @ExtendWith(LocalClusterExtension.class)
 * class MyOperatorTest {
 *     @Test
 *     void handlesCreation(LocalCluster cluster, TemporaryNamespace namespace) { ... }
 * }
 * }</pre>
 */
public final class LocalClusterExtension implements ParameterResolver {
    private static final ExtensionContext.Namespace STORE = ExtensionContext.Namespace.create(LocalClusterExtension.class);

    /** An extension as JUnit makes one for {@code @ExtendWith(LocalClusterExtension.class)}. */
    public LocalClusterExtension() {
    }

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        Class<?> type = parameter.getParameter().getType();
        return type == LocalCluster.class || type == TemporaryNamespace.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        LocalCluster cluster = cluster(context);
        if (parameter.getParameter().getType() == LocalCluster.class) {
            return cluster;
        }
        TemporaryNamespace namespace = newNamespace(cluster, context);
        context.getStore(STORE).put(namespace.name(), namespace);
        return namespace;
    }

    /**
     * The run's one cluster, started by whichever test asks first (JUnit's root store locks the start):
     * for other extensions that share it, as kopf4j-testing's {@code KopfExtension} does.
     *
     * @param context any test's or container's context of the run
     * @return the run's cluster
     */
    public static LocalCluster cluster(ExtensionContext context) {
        return context.getRoot().getStore(STORE)
                .getOrComputeIfAbsent(LocalCluster.class, k -> LocalCluster.start(), LocalCluster.class);
    }

    /**
     * The run's one cluster, or, for tests that ask for none of its controllers, a second one without
     * them, shared by those tests. Turned off for the whole run ({@code -Dkopf4j.envtest.controllers=false}),
     * the controllers run in neither.
     *
     * @param context any test's or container's context of the run
     * @param controllers false for a cluster without kube-controller-manager
     * @return the run's cluster of that kind
     */
    public static LocalCluster cluster(ExtensionContext context, boolean controllers) {
        if (controllers || !LocalCluster.controllersByDefault()) {
            return cluster(context);
        }
        return context.getRoot().getStore(STORE).getOrComputeIfAbsent("controllers=" + controllers,
                k -> LocalCluster.builder().controllers(controllers).start(), LocalCluster.class);
    }

    /**
     * A namespace named after the test class, so that a leftover one says whose it is.
     *
     * @param cluster the cluster to create it in
     * @param context the test's context, which names the test class
     * @return the new namespace; closing it deletes it
     */
    public static TemporaryNamespace newNamespace(LocalCluster cluster, ExtensionContext context) {
        String prefix = context.getRequiredTestClass().getSimpleName().toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]", "");
        prefix = prefix.substring(0, Math.min(prefix.length(), 40));
        return new TemporaryNamespace(cluster.client(), prefix.isEmpty() ? "test" : prefix);
    }
}
