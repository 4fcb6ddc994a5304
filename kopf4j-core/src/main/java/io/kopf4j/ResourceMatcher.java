package io.kopf4j;

/**
 * A resource selector as a predicate (Kopf's callable resource selectors, {@code @kopf.on.event(fn)}):
 * a handler is for every resource, of any group and any version, for which it returns true, asked
 * again whenever CRDs appear or change. Kubernetes Events ({@code v1} and {@code events.k8s.io})
 * never match, whatever it returns. Implementations given by class need a public no-argument
 * constructor.
 *
 * <pre>{@code
 * public static class ArgoKinds implements ResourceMatcher {
 *     public boolean matches(Resource resource) { return resource.group().endsWith("argoproj.io"); }
 * }
 *
 * @On.Event(selector = ArgoKinds.class)
 * void seen(String name, Resource resource, Logger logger) { logger.info("{} {}", resource.kind(), name); }
 *
 * Handler.event().id("seen").selector(resource -> resource.kind().endsWith("Policy")).handle(context -> null);
 * }</pre>
 */
@FunctionalInterface
public interface ResourceMatcher {
    /**
     * Decides whether a served resource is the handler's.
     *
     * @param resource a resource the API server serves, in one of its versions
     * @return true to watch it for the handler
     */
    boolean matches(Resource resource);
}
