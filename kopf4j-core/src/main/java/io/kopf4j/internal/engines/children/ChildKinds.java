package io.kopf4j.internal.engines.children;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.kopf4j.HandlerDescription.Option;
import io.kopf4j.OperatorException;
import io.kopf4j.Resource;
import io.kopf4j.internal.intents.ChildrenHandler;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * The resources of the children that the handlers declare, resolved against the API server's
 * discovery once at the start: a fabric8 type by its group, version and kind, a selector as kubectl
 * resolves it. A kind the server does not serve stops the operator's start naming the handler, as an
 * unknown resource of a handler does.
 *
 * <pre>{@code
 * ChildKinds.Discovery discovery = new ChildKinds.Discovery(catalog::resources, catalog::resolve, catalog.remedy());
 * Map<String, Resource> byGroupKind = ChildKinds.of(handler, discovery);
 * }</pre>
 */
public final class ChildKinds {
    private ChildKinds() {
    }

    /**
     * What the API server serves, as the root's API catalog tells it (an engine does not depend on another's package).
     *
     * @param served the resources of these groups
     * @param byName the one resource a kubectl-style name selects, or an {@code OperatorException}
     * @param remedy what makes an unknown resource known
     */
    public record Discovery(Function<Set<String>, List<Resource>> served, Function<String, Resource> byName, String remedy) {
    }

    /**
     * {@return each kind the handler declares, its resource by its group/kind ({@code apps/Deployment}, {@code /ConfigMap})}
     *
     * @throws OperatorException naming the handler and the kind the server does not serve
     */
    static Map<String, Resource> of(ChildrenHandler handler, Discovery catalog) {
        Map<String, Resource> resolved = new LinkedHashMap<>();
        for (Class<? extends HasMetadata> type : handler.options().get(Option.ChildKinds.class)
                .map(Option.ChildKinds::types).orElse(List.of())) {
            Resource resource = typed(type, catalog, handler);
            resolved.put(resource.group() + "/" + resource.kind(), resource);
        }
        for (String selector : handler.options().get(Option.ChildResources.class)
                .map(Option.ChildResources::selectors).orElse(List.of())) {
            Resource resource;
            try {
                resource = catalog.byName().apply(selector);
            } catch (OperatorException e) {
                throw new OperatorException("Handler " + handler.origin() + ": its children's " + e.getMessage(), e);
            }
            resolved.put(resource.group() + "/" + resource.kind(), resource);
        }
        return resolved;
    }

    private static Resource typed(Class<? extends HasMetadata> type, Discovery catalog, ChildrenHandler handler) {
        String group = HasMetadata.getGroup(type);
        String version = HasMetadata.getVersion(type);
        String kind = HasMetadata.getKind(type);
        return catalog.served().apply(Set.of(group == null ? "" : group)).stream()
                .filter(resource -> resource.kind().equals(kind) && resource.version().equals(version))
                .findFirst()
                .orElseThrow(() -> new OperatorException("Handler " + handler.origin() + ": its children's kind " + kind
                        + " (" + HasMetadata.getApiVersion(type) + ") is not served by the API server; " + catalog.remedy()));
    }
}
