package io.kopf4j.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Stream;

/**
 * The checks of Kubernetes' Pod Security Standards, profile "restricted" (which includes "baseline"),
 * as pod-security-admission runs them (its {@code policy/check_*.go}), on a pod spec given as the
 * YAML's maps: the API server of the local cluster (1.20) has no PodSecurity admission plugin yet, so
 * the generated manifests are held against the rules here. Each finding names the field at fault.
 *
 * <pre>{@code
 * List<String> violations = PodSecurityRestricted.violations(podSpec);   // empty: admitted by "restricted"
 * }</pre>
 */
final class PodSecurityRestricted {
    private static final Set<String> VOLUME_TYPES = Set.of("configMap", "csi", "downwardAPI", "emptyDir", "ephemeral",
            "persistentVolumeClaim", "projected", "secret");
    private static final Set<String> SAFE_SYSCTLS = Set.of("kernel.shm_rmid_forced", "net.ipv4.ip_local_port_range",
            "net.ipv4.ip_unprivileged_port_start", "net.ipv4.tcp_syncookies", "net.ipv4.ping_group_range",
            "net.ipv4.ip_local_reserved_ports", "net.ipv4.tcp_keepalive_time", "net.ipv4.tcp_fin_timeout",
            "net.ipv4.tcp_keepalive_intvl", "net.ipv4.tcp_keepalive_probes");
    private static final Set<String> SELINUX_TYPES = Set.of("", "container_t", "container_init_t", "container_kvm_t",
            "container_engine_t");

    private PodSecurityRestricted() {
    }

    /** {@return what the pod spec breaks of the restricted profile; empty if nothing} */
    static List<String> violations(Map<String, Object> pod) {
        List<String> found = new ArrayList<>();
        for (String host : List.of("hostNetwork", "hostPID", "hostIPC")) {
            if (Boolean.TRUE.equals(pod.get(host))) {
                found.add("spec." + host + " must not be true");
            }
        }
        for (Map<String, Object> volume : maps(pod.get("volumes"))) {
            Set<String> types = new java.util.HashSet<>(volume.keySet());
            types.remove("name");
            if (!VOLUME_TYPES.containsAll(types)) {
                found.add("volume " + volume.get("name") + ": type " + types + " is not allowed (only " + VOLUME_TYPES + ")");
            }
        }
        Map<String, Object> podContext = map(pod.get("securityContext"));
        for (Map<String, Object> sysctl : maps(podContext.get("sysctls"))) {
            if (!SAFE_SYSCTLS.contains(String.valueOf(sysctl.get("name")))) {
                found.add("sysctl " + sysctl.get("name") + " is not a safe one");
            }
        }
        checkSeLinux("spec.securityContext", podContext, found);
        String podSeccomp = seccomp(podContext);
        if ("Unconfined".equals(podSeccomp)) {
            found.add("spec.securityContext.seccompProfile.type must not be Unconfined");
        }
        if (podContext.get("runAsUser") instanceof Number user && user.longValue() == 0) {
            found.add("spec.securityContext.runAsUser must not be 0");
        }
        boolean podNonRoot = Boolean.TRUE.equals(podContext.get("runAsNonRoot"));
        List<Map<String, Object>> containers = Stream.of("containers", "initContainers", "ephemeralContainers")
                .flatMap(kind -> maps(pod.get(kind)).stream()).toList();
        if (containers.isEmpty()) {
            found.add("the pod has no containers");
        }
        for (Map<String, Object> container : containers) {
            String where = "container " + container.get("name");
            Map<String, Object> context = map(container.get("securityContext"));
            if (Boolean.TRUE.equals(context.get("privileged"))) {
                found.add(where + ": securityContext.privileged must not be true");
            }
            if (!Boolean.FALSE.equals(context.get("allowPrivilegeEscalation"))) {
                found.add(where + ": securityContext.allowPrivilegeEscalation must be false");
            }
            Object nonRoot = context.get("runAsNonRoot");
            if (Boolean.FALSE.equals(nonRoot) || nonRoot == null && !podNonRoot) {
                found.add(where + ": runAsNonRoot must be true (in the pod's or the container's securityContext)");
            }
            if (context.get("runAsUser") instanceof Number user && user.longValue() == 0) {
                found.add(where + ": securityContext.runAsUser must not be 0");
            }
            String containerSeccomp = seccomp(context);
            String effective = containerSeccomp != null ? containerSeccomp : podSeccomp;
            if (!"RuntimeDefault".equals(effective) && !"Localhost".equals(effective)) {
                found.add(where + ": seccompProfile.type must be RuntimeDefault or Localhost (in the pod's or the container's"
                        + " securityContext), is " + effective);
            }
            Map<String, Object> capabilities = map(context.get("capabilities"));
            if (!strings(capabilities.get("drop")).contains("ALL")) {
                found.add(where + ": securityContext.capabilities.drop must include ALL");
            }
            for (String added : strings(capabilities.get("add"))) {
                if (!added.equals("NET_BIND_SERVICE")) {
                    found.add(where + ": securityContext.capabilities.add may hold NET_BIND_SERVICE only, not " + added);
                }
            }
            if (context.get("procMount") != null && !"Default".equals(context.get("procMount"))) {
                found.add(where + ": securityContext.procMount must be Default");
            }
            checkSeLinux(where + ": securityContext", context, found);
            for (Map<String, Object> port : maps(container.get("ports"))) {
                if (port.get("hostPort") instanceof Number hostPort && hostPort.intValue() != 0) {
                    found.add(where + ": ports must not set hostPort");
                }
            }
        }
        return found;
    }

    private static void checkSeLinux(String where, Map<String, Object> context, List<String> found) {
        Map<String, Object> options = map(context.get("seLinuxOptions"));
        if (!SELINUX_TYPES.contains(Objects.toString(options.get("type"), ""))) {
            found.add(where + ".seLinuxOptions.type is not allowed");
        }
        if (options.get("user") != null || options.get("role") != null) {
            found.add(where + ".seLinuxOptions must not set user or role");
        }
    }

    private static String seccomp(Map<String, Object> context) {
        return map(context.get("seccompProfile")).get("type") instanceof String type ? type : null;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> map(Object value) {
        return value instanceof Map<?, ?> map ? (Map<String, Object>) map : Map.of();
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> maps(Object value) {
        return value instanceof List<?> list ? list.stream().filter(Map.class::isInstance).map(item -> (Map<String, Object>) item)
                .toList() : List.of();
    }

    private static List<String> strings(Object value) {
        return value instanceof List<?> list ? list.stream().map(String::valueOf).toList() : List.of();
    }
}
