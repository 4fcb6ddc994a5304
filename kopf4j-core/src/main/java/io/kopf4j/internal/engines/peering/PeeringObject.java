package io.kopf4j.internal.engines.peering;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.kopf4j.Resource;
import io.kopf4j.internal.clients.ApiRequest;
import io.kopf4j.internal.structs.Json;
import java.time.Instant;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One peering object (a {@code KopfPeering} in a namespace or a {@code ClusterKopfPeering}) and
 * the writes to it, with Kopf's merge patches of {@code status}: a peer's own record
 * ({@link #touch}) and the removal of records ({@code null} values, {@link #clean}).
 *
 * <pre>{@code
 * PeeringObject object = new PeeringObject(client, kopfPeerings, "default", "default");
 * object.touch(new Peer("alice@laptop", 100, Duration.ofSeconds(60), Instant.now()), false);
 * object.touch(Peer.leaving("alice@laptop", 100), false);   // removes the record
 * }</pre>
 *
 * @param namespace the object's namespace; null for a {@code ClusterKopfPeering}
 */
record PeeringObject(KubernetesClient client, Resource resource, String namespace, String name) {
    private static final Logger LOG = LoggerFactory.getLogger(PeeringObject.class);

    /**
     * Writes the peer's record, or removes it if the peer is dead already (a lifetime of 0, as
     * {@code resume} and an operator's exit write), and logs Kopf's keep-alive line: always when
     * the object is missing, else unless {@code stealth}.
     *
     * @return false if the peering object does not exist
     */
    public boolean touch(Peer peer, boolean stealth) {
        Map<String, Object> entries = new LinkedHashMap<>();
        entries.put(peer.identity(), peer.isDead(Instant.now()) ? null : peer.asMap());
        boolean found = patchStatus(entries);
        if (!stealth || !found) {
            LOG.debug("Keep-alive in {} {}: {}.", Json.pythonRepr(name),
                    namespace == null ? "cluster-wide" : "in " + Json.pythonRepr(namespace), found ? "ok" : "not found");
        }
        return found;
    }

    /** Removes the records of these (dead) peers. */
    public void clean(Collection<Peer> peers) {
        Map<String, Object> entries = new LinkedHashMap<>();
        peers.forEach(peer -> entries.put(peer.identity(), null));
        patchStatus(entries);
    }

    /** Where Kopf's log lines say this object is. */
    public String describe() {
        return name + "@" + namespace;
    }

    /**
     * Kopf's {@code patch_obj(..., silent=True)}: the status through {@code /status} if the
     * resource has that subresource (Kopf's own CRDs do not), else through the object; a missing
     * object is not an error.
     */
    private boolean patchStatus(Map<String, Object> entries) {
        ApiRequest request = ApiRequest.object(client, resource, namespace, name);
        if (resource.hasStatusSubresource()) {
            request = request.status();
        }
        try {
            request.send("PATCH", ApiRequest.MERGE, Json.compact(Map.of("status", entries)));
            return true;
        } catch (KubernetesClientException e) {
            if (e.getCode() == 404) {
                return false;
            }
            throw e;
        }
    }
}
