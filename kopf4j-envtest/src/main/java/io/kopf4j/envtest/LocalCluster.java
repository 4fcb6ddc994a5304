package io.kopf4j.envtest;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.authentication.TokenRequest;
import io.fabric8.kubernetes.api.model.authentication.TokenRequestBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.kopf4j.Resource;
import io.kopf4j.internal.engines.permissions.ApiCatalog;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A real, throw-away Kubernetes control plane: etcd and kube-apiserver as child processes, bound
 * to 127.0.0.1 only, on free ports, with TLS and an admin client certificate. Several can run at
 * once. It stops when closed, and also when the JVM exits (shutdown hook) or is killed (a watchdog
 * beside each process), leaving no process behind. Its processes run outside the terminal's
 * process group, so that a terminal's Ctrl-C reaches only the JVM, which stops them when it is
 * ready to.
 *
 * <pre>{@code
 * try (LocalCluster cluster = LocalCluster.start()) {
 *     cluster.apply(Path.of("examples/crd.yaml"));
 *     KubernetesClient client = cluster.client();
 *     Path kubeconfig = cluster.kubeconfig();      // for kubectl or an operator
 * }
 * }</pre>
 *
 * <p>It is a control plane only: <b>no controllers run and no garbage collector</b>. A StatefulSet
 * or Deployment gets no pods and its status stays empty; children owned by an object stay after
 * their owner is deleted (cascading deletion is the garbage collector's job); a PersistentVolumeClaim
 * never binds and keeps its {@code kubernetes.io/pvc-protection} finalizer; a deleted namespace
 * stays {@code Terminating} with its objects. What the tests need of a controller, they do themselves: {@link #setStatus}
 * writes an object's status as its controller would, and owned children are deleted explicitly.
 *
 * <p>A cluster that outlives the JVM, for trying an operator by hand across its restarts, is a
 * {@link KeptCluster}; both start their processes through the same {@code ControlPlane}.
 *
 * <p>The binaries are found by {@link EnvtestAssets}: {@code KUBEBUILDER_ASSETS}, the cache, or
 * provisioned on first use.
 */
public final class LocalCluster implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(LocalCluster.class);

    private final Path state;
    private final ControlPlane plane;
    /** How often a start is tried when a port it picked was taken meanwhile. */
    private static final int PORT_ATTEMPTS = 3;
    /** What etcd and kube-apiserver log when a port is taken. */
    private static final String PORT_TAKEN = "address already in use";
    private final Thread shutdownHook;
    /** The API server's audit log, if asked for ({@code -Dkopf4j.envtest.audit=true}); else null. */
    private final AuditLog audit;
    private ControlPlaneProcess etcd;
    private ControlPlaneProcess apiServer;
    private KubernetesClient client;
    private boolean apiServerFrozen;
    private boolean closed;

    private LocalCluster(Path binaries, List<String> apiServerFlags) throws IOException, GeneralSecurityException {
        this.state = Files.createTempDirectory("kopf4j-cluster-");
        this.audit = AuditLog.ifAsked(state);
        List<String> flags = new java.util.ArrayList<>(apiServerFlags);
        if (audit != null) {
            flags.addAll(audit.apiServerFlags());
        }
        this.plane = new ControlPlane(binaries, state, Pki.create(state.resolve("pki")), ControlPlane.Ports.free(),
                flags, false);
        this.shutdownHook = new Thread(this::stopProcesses, "kopf4j-local-cluster-shutdown");
        Runtime.getRuntime().addShutdownHook(shutdownHook);
    }

    /**
     * Starts a cluster with the binaries {@link EnvtestAssets#locate()} finds.
     *
     * @return the running cluster, which {@code close()} stops and deletes
     */
    public static LocalCluster start() {
        return start(EnvtestAssets.locate());
    }

    /**
     * Starts a cluster with the binaries in {@code binaries} (kube-apiserver, etcd, kubectl).
     *
     * @param binaries the directory with the binaries, e.g. {@code Path.of("/usr/local/kubebuilder/bin")}
     * @return the running cluster, which {@code close()} stops and deletes
     */
    public static LocalCluster start(Path binaries) {
        return start(binaries, List.of());
    }

    /**
     * Starts a cluster whose API server gets these flags besides its own, with the binaries
     * {@link EnvtestAssets#locate()} finds.
     *
     * <pre>{@code
     * // Every watch served from etcd: a watch from a compacted version gets 410 Gone at once,
     * // as from the watch cache only once its window has moved past that version.
     * LocalCluster cluster = LocalCluster.start(List.of("--watch-cache=false"));
     * }</pre>
     *
     * @param apiServerFlags kube-apiserver's flags, e.g. {@code "--watch-cache=false"}
     * @return the running cluster, which {@code close()} stops and deletes
     */
    public static LocalCluster start(List<String> apiServerFlags) {
        return start(EnvtestAssets.locate(), apiServerFlags);
    }

    /**
     * The ports are picked free, then bound by the processes a moment later: meanwhile another
     * process (or an outgoing connection's ephemeral port) may take one. Such a start is tried again
     * on new ports, a few times, rather than failing a test run on a coincidence.
     */
    private static LocalCluster start(Path binaries, List<String> apiServerFlags) {
        CoreAccess.require(Resource.class.getModule(), LocalCluster.class.getModule());
        for (int attempt = 1; ; attempt++) {
            try {
                return startOnce(binaries, apiServerFlags);
            } catch (IllegalStateException e) {
                if (attempt >= PORT_ATTEMPTS || e.getMessage() == null || !e.getMessage().contains(PORT_TAKEN)) {
                    throw e;
                }
                LOG.info("A port of the local cluster was taken before its process bound it; starting again on new ports.");
            }
        }
    }

    private static LocalCluster startOnce(Path binaries, List<String> apiServerFlags) {
        long began = System.nanoTime();
        LocalCluster cluster;
        try {
            cluster = new LocalCluster(binaries, apiServerFlags);
        } catch (IOException | GeneralSecurityException e) {
            throw new IllegalStateException("cannot prepare a local cluster: " + e.getMessage(), e);
        }
        try {
            cluster.etcd = cluster.plane.startEtcd();
            long etcdReady = System.nanoTime();
            cluster.startApiServer();
            cluster.plane.writeKubeconfig();
            LOG.info("Local cluster started in {} s (etcd {} s, kube-apiserver {} s): {}, Kubernetes {}, {}, {}",
                    seconds(System.nanoTime() - began), seconds(etcdReady - began), seconds(System.nanoTime() - etcdReady),
                    cluster.serverUrl(), cluster.serverVersion(), cluster.etcd.describe(), cluster.apiServer.describe());
            return cluster;
        } catch (RuntimeException | Error e) {
            cluster.close();
            throw e;
        }
    }

    /** {@return the API server's URL, e.g. {@code https://127.0.0.1:41234}} */
    public String serverUrl() {
        return plane.serverUrl();
    }

    /**
     * An admin kubeconfig for this cluster (cluster-admin through the system:masters group).
     *
     * @return the file, in the cluster's state directory, deleted with it
     */
    public Path kubeconfig() {
        return plane.kubeconfig();
    }

    /**
     * A kubeconfig for another user (and groups), authenticated by a client certificate: for
     * testing what an operator does with limited RBAC permissions. Grant them with Roles.
     *
     * @param user the user name, e.g. {@code "alice"}
     * @param groups the user's groups, e.g. {@code "developers"}; none for no group
     * @return the file, in the cluster's state directory, deleted with it
     */
    public Path kubeconfigFor(String user, String... groups) {
        try {
            Path[] credentials = plane.pki.client(state.resolve("pki"), user, groups);
            Path file = state.resolve("kubeconfig-" + user);
            PrivateFiles.write(file, plane.kubeconfigYaml(user, ControlPlane.certificateCredentials(credentials[0], credentials[1]), "default"));
            return file;
        } catch (IOException | GeneralSecurityException e) {
            throw new IllegalStateException("cannot make credentials for " + user + ": " + e.getMessage(), e);
        }
    }

    /**
     * A kubeconfig for a ServiceAccount, as its pod would authenticate: a token of the
     * TokenRequest API (valid for an hour), no client certificate. For running an operator with
     * exactly the RBAC granted to its ServiceAccount, e.g. what {@code kopf4j manifests} generates:
     *
     * <pre>{@code
     * cluster.apply(Path.of("target/manifests/rbac.yaml"));   // the ServiceAccount, its Role and binding
     * Path kubeconfig = cluster.kubeconfigForServiceAccount("operators", "my-operator");
     * KopfRunner.start(kubeconfig, "run", "-n", "default", "Handlers.java");
     * }</pre>
     *
     * @param namespace the ServiceAccount's namespace, e.g. {@code "operators"}
     * @param name the ServiceAccount's name, e.g. {@code "my-operator"}
     * @return the file, in the cluster's state directory, deleted with it
     * @throws IllegalStateException if the ServiceAccount does not exist
     */
    public Path kubeconfigForServiceAccount(String namespace, String name) {
        if (client().serviceAccounts().inNamespace(namespace).withName(name).get() == null) {
            throw new IllegalStateException("no ServiceAccount " + namespace + "/" + name + " to make a token for");
        }
        TokenRequest request = new TokenRequestBuilder().withNewSpec().withExpirationSeconds(3600L).endSpec().build();
        String token = client().serviceAccounts().inNamespace(namespace).withName(name).tokenRequest(request)
                .getStatus().getToken();
        String user = "system:serviceaccount:" + namespace + ":" + name;
        Path file = state.resolve("kubeconfig-serviceaccount-" + namespace + "-" + name);
        try {
            // The context's namespace is the ServiceAccount's, as a pod's in-cluster configuration has it: Events of
            // cluster-scoped objects go there (Kopf's rule), where its generated RBAC lets it post them.
            PrivateFiles.write(file, plane.kubeconfigYaml(user, "token: " + token, namespace));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return file;
    }

    /**
     * Every request of this user so far, each kind once (verb, resource, namespace, status), in
     * order, as the API server's audit log recorded it: what an operator really does, to hold
     * against the RBAC it is given ({@link RbacGrants}). The log is kept only for clusters started
     * with {@code -Dkopf4j.envtest.audit=true} in the JVM's system properties (it costs the API
     * server a line per request).
     *
     * <pre>{@code
     * List<ApiCall> calls = cluster.apiCalls("system:serviceaccount:operators:my-operator");
     * }</pre>
     *
     * @param user the user name, e.g. {@code system:serviceaccount:NAMESPACE:NAME}
     * @return the requests, answered ones (a watch once it streams)
     * @throws IllegalStateException if the cluster keeps no audit log
     */
    public List<ApiCall> apiCalls(String user) {
        if (audit == null) {
            throw new IllegalStateException("this cluster keeps no audit log: start it with -D" + AuditLog.PROPERTY + "=true");
        }
        return audit.calls(user);
    }

    /**
     * The directory with the binaries; {@code kubectl} among them.
     *
     * @return e.g. the directory that {@link EnvtestAssets#locate()} found
     */
    public Path binaries() {
        return plane.binaries;
    }

    /** {@return the server's version as it reports it, e.g. {@code v1.20.2}} */
    public String serverVersion() {
        return client().getKubernetesVersion().getGitVersion();
    }

    /** The process ids of etcd and kube-apiserver (those running). */
    synchronized List<Long> processIds() {
        List<Long> pids = new ArrayList<>();
        for (ControlPlaneProcess process : new ControlPlaneProcess[]{etcd, apiServer}) {
            if (process != null) {
                pids.add(process.pid());
            }
        }
        return pids;
    }

    /**
     * An admin client, closed with the cluster.
     *
     * @return the same client at every call
     */
    public synchronized KubernetesClient client() {
        if (client == null) {
            try {
                client = new KubernetesClientBuilder()
                        .withConfig(Config.fromKubeconfig(null, Files.readString(kubeconfig()), kubeconfig().toString()))
                        .build();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return client;
    }

    /**
     * Applies the objects of YAML files (server-side apply) and waits until every
     * CustomResourceDefinition among them is Established and served.
     *
     * @param files YAML files of one or many documents, e.g. {@code Path.of("crd.yaml")}
     */
    public void apply(Path... files) {
        new ClusterObjects(client()).apply(files);
    }

    /**
     * Sets fields of an object's status as its controller would (none runs here): a JSON merge patch
     * of {@code status}, so the fields given replace theirs, the others stay, and a null value removes
     * one. It goes to the {@code /status} subresource where the resource has one (the main endpoint
     * ignores the status there), else to the object itself.
     *
     * <pre>{@code
     * cluster.setStatus("apps/v1", "StatefulSet", "default", "web", Map.of("replicas", 3, "readyReplicas", 3));
     * }</pre>
     *
     * @param apiVersion the object's API version, e.g. {@code "apps/v1"}
     * @param kind the object's kind, e.g. {@code "StatefulSet"}
     * @param namespace the object's namespace, or null for a cluster-scoped object
     * @param name the object's name
     * @param status the fields to set; a null value removes a field
     * @return the object as the API server stored it
     */
    public GenericKubernetesResource setStatus(String apiVersion, String kind, String namespace, String name,
                                               Map<String, Object> status) {
        int slash = apiVersion.indexOf('/');
        String group = slash < 0 ? "" : apiVersion.substring(0, slash);
        Resource resource = ApiCatalog.live(client()).resources(Set.of(group)).stream()
                .filter(served -> apiVersion.equals(served.apiVersion()) && kind.equals(served.kind()))
                .findFirst()
                .orElseThrow(() -> new IllegalArgumentException("the API server serves no " + kind + " in " + apiVersion));
        return new ClusterObjects(client()).setStatus(resource, namespace, name, status);
    }

    /** Stops the API server, keeping etcd and its data (to simulate an API outage). */
    public synchronized void stopApiServer() {
        thawApiServer();
        if (apiServer != null) {
            apiServer.stop();
            apiServer = null;
        }
    }

    /**
     * Kills etcd and the API server at once (SIGKILL), as a crash of the control plane's machine
     * would, but for the data: what etcd has written stays (in the operating system's files, even
     * without fsync). {@link #restartControlPlane()} starts them again on it.
     */
    public synchronized void killControlPlane() {
        if (apiServer != null) {
            apiServer.kill();
            apiServer = null;
            apiServerFrozen = false;
        }
        if (etcd != null) {
            etcd.kill();
            etcd = null;
        }
    }

    /**
     * Starts etcd on its data and ports, then the API server, as after {@link #killControlPlane()},
     * and waits until the API server is ready. The revision, so the resourceVersions, go on from
     * where they were; the API server's watch cache starts empty.
     */
    public synchronized void restartControlPlane() {
        if (etcd == null) {
            etcd = plane.startEtcd();
        }
        startApiServer();
    }

    /**
     * Freezes the API server (SIGSTOP) until {@link #thawApiServer()}: its connections stay open and
     * the operating system still accepts new ones, but nothing is answered and no watch ends, as with
     * a server that hangs or a network that drops packets without resetting connections.
     */
    public synchronized void freezeApiServer() {
        if (apiServer == null || apiServerFrozen) {
            throw new IllegalStateException("the API server is not running, or already frozen");
        }
        apiServer.signal("STOP");
        apiServerFrozen = true;
    }

    /** Lets the frozen API server go on (SIGCONT): it answers what waited meanwhile. */
    public synchronized void thawApiServer() {
        if (apiServerFrozen) {
            apiServer.signal("CONT");
            apiServerFrozen = false;
        }
    }

    /**
     * Compacts etcd's history up to its current revision (physically), as the API server does by
     * itself every 5 minutes ({@code --etcd-compaction-interval}): a watch from an older
     * resourceVersion that reaches etcd is answered with 410 Gone. The API server's watch cache
     * serves older versions for as long as they are in its window (see {@link #start(List)}).
     *
     * @return the revision compacted to
     */
    public long compactEtcd() {
        Map<?, ?> header = (Map<?, ?>) etcdCall("/v3/kv/range", Map.of("key", "AA==")).get("header");
        long revision = Long.parseLong(String.valueOf(header.get("revision")));
        etcdCall("/v3/kv/compaction", Map.of("revision", String.valueOf(revision), "physical", true));
        return revision;
    }

    /** A call to etcd's JSON gateway (its gRPC API as JSON, bytes in base64) on the client port. */
    private Map<?, ?> etcdCall(String path, Map<String, Object> request) {
        var serialization = client().getKubernetesSerialization();
        HttpRequest post = HttpRequest.newBuilder(URI.create(plane.etcdUrl() + path))
                .timeout(Duration.ofSeconds(30))
                .POST(HttpRequest.BodyPublishers.ofString(serialization.asJson(request))).build();
        try {
            HttpResponse<String> response = plane.http.send(post, HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() != 200) {
                throw new IllegalStateException("etcd answered " + path + " with " + response.statusCode() + ": " + response.body());
            }
            return serialization.unmarshal(response.body(), Map.class);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot call etcd's " + path, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while calling etcd's " + path, e);
        }
    }

    /** Starts the API server again on the same port, with the same data, and waits until it is ready. */
    public synchronized void startApiServer() {
        if (apiServer != null) {
            return;
        }
        apiServer = plane.startApiServer();
    }

    /** Stops both processes and deletes the cluster's files. Safe to call more than once. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        if (client != null) {
            client.close();
        }
        stopProcesses();
        plane.close();
        try {
            Runtime.getRuntime().removeShutdownHook(shutdownHook);
        } catch (IllegalStateException alreadyShuttingDown) {
            // The hook itself is running or has run.
        }
        deleteState();
        LOG.info("Local cluster {} stopped", serverUrl());
    }

    private synchronized void stopProcesses() {
        thawApiServer();   // a frozen process would ignore SIGTERM until the SIGKILL after the grace period
        if (apiServer != null) {
            apiServer.stop();
            apiServer = null;
        }
        if (etcd != null) {
            etcd.stop();
            etcd = null;
        }
    }

    private void deleteState() {
        try (Stream<Path> files = Files.walk(state)) {
            files.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        } catch (IOException e) {
            LOG.warn("Cannot delete the local cluster's files in {}: {}", state, e.getMessage());
        }
    }

    private static String seconds(long nanos) {
        return String.format(java.util.Locale.ROOT, "%.1f", nanos / 1e9);
    }
}
