package io.kopf4j.internal.reactor.orchestration;

import io.kopf4j.Resource;

/**
 * One watch stream: a resource in one namespace, or cluster-wide ({@code namespace} null), as Kopf's
 * orchestration keys its watchers.
 */
public record WatcherKey(Resource resource, String namespace) {
    @Override
    public String toString() {
        return resource + (namespace == null ? " cluster-wide" : " in " + namespace);
    }
}
