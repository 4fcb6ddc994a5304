package io.kopf4j.internal.engines.sharding;

import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.api.model.coordination.v1.LeaseBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Duration;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The group's Leases ({@code coordination.k8s.io/v1}) in one namespace, one per member, found by
 * the label {@code kopf4j.dev/shard-group}. Writes go through fabric8's update, which sends the
 * resourceVersion read: a concurrent writer makes it fail with 409, which is how two replicas never
 * both take the same slot.
 *
 * <pre>{@code
 * LeaseStore leases = new KubernetesLeases(client, "operators", "my-operator", Duration.ofSeconds(15));
 * }</pre>
 */
final class KubernetesLeases implements LeaseStore {
    public static final String GROUP_LABEL = "kopf4j.dev/shard-group";
    public static final String MEMBER_ANNOTATION = "kopf4j.dev/shard-member";
    public static final String VIEW_ANNOTATION = "kopf4j.dev/shard-view";

    private final KubernetesClient client;
    private final String namespace;
    private final String group;
    private final int durationSeconds;

    public KubernetesLeases(KubernetesClient client, String namespace, String group, Duration leaseDuration) {
        this.client = client;
        this.namespace = namespace;
        this.group = group;
        this.durationSeconds = (int) Math.max(1, leaseDuration.toSeconds());
    }

    /** The Lease's name for a member: {@code kopf4j-shard-<group>-<member>}, made a valid object name. */
    public String leaseName(String member) {
        String name = ("kopf4j-shard-" + group + "-" + member).toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9.-]", "-");
        return name.length() <= 253 ? name : name.substring(0, 253);
    }

    @Override
    public List<MemberLease> list() {
        return client.leases().inNamespace(namespace).withLabel(GROUP_LABEL, group).list().getItems().stream()
                .map(KubernetesLeases::read).toList();
    }

    @Override
    public MemberLease create(String member, String holder, String view) throws Lost {
        ZonedDateTime now = now();
        Lease lease = lease(leaseName(member), null, member, holder, view, now, now);
        try {
            return read(client.leases().inNamespace(namespace).resource(lease).create());
        } catch (KubernetesClientException e) {
            throw lostOr(e, "the Lease " + lease.getMetadata().getName() + " exists");
        }
    }

    @Override
    public MemberLease hold(MemberLease held, String holder, String view) throws Lost {
        ZonedDateTime now = now();
        boolean acquired = !holder.isEmpty() && !holder.equals(held.holder());
        Lease lease = lease(held.name(), held.resourceVersion(), held.member(), holder.isEmpty() ? null : holder, view,
                acquired ? now : null, now);
        try {
            return read(client.leases().inNamespace(namespace).resource(lease).update());
        } catch (KubernetesClientException e) {
            throw lostOr(e, "the Lease " + held.name() + " was written by someone else");
        }
    }

    /** A member's Lease as written: a new one (no resourceVersion) or a renewal of the version read. */
    private Lease lease(String name, String resourceVersion, String member, String holder, String view,
                        ZonedDateTime acquired, ZonedDateTime renewed) {
        return new LeaseBuilder()
                .withNewMetadata().withName(name).withNamespace(namespace).withResourceVersion(resourceVersion)
                    .withLabels(Map.of(GROUP_LABEL, group)).withAnnotations(annotations(member, view)).endMetadata()
                .withNewSpec().withHolderIdentity(holder).withLeaseDurationSeconds(durationSeconds)
                    .withAcquireTime(acquired).withRenewTime(renewed).endSpec()
                .build();
    }

    @Override
    public void delete(MemberLease lease) {
        client.leases().inNamespace(namespace).withName(lease.name()).delete();
    }

    private static Map<String, String> annotations(String member, String view) {
        Map<String, String> annotations = new HashMap<>();
        annotations.put(MEMBER_ANNOTATION, member);
        if (view != null) {
            annotations.put(VIEW_ANNOTATION, view);
        }
        return annotations;
    }

    private static Lost lostOr(KubernetesClientException e, String message) {
        if (e.getCode() == 404 || e.getCode() == 409) {
            return new Lost(message);
        }
        throw e;
    }

    private static ZonedDateTime now() {
        return ZonedDateTime.now(ZoneOffset.UTC);
    }

    private static MemberLease read(Lease lease) {
        Map<String, String> annotations = lease.getMetadata().getAnnotations() == null ? Map.of()
                : lease.getMetadata().getAnnotations();
        var spec = lease.getSpec();
        return new MemberLease(lease.getMetadata().getName(),
                annotations.getOrDefault(MEMBER_ANNOTATION, lease.getMetadata().getName()),
                spec == null ? null : spec.getHolderIdentity(),
                annotations.get(VIEW_ANNOTATION), lease.getMetadata().getResourceVersion(),
                spec == null || spec.getLeaseDurationSeconds() == null ? 0 : spec.getLeaseDurationSeconds());
    }
}
