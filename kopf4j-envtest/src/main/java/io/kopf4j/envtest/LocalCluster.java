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
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
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
 * <p>Besides the control plane, <b>kube-controller-manager runs the controllers that need no
 * nodes</b> when the binaries include it (the cache that {@code scripts/envtest.sh} builds does; the
 * envtest archives do not): the garbage collector (children owned by an object go with it), namespace
 * deletion, the Deployment, ReplicaSet, StatefulSet and Job controllers, and the PVC protection
 * finalizer's removal. There is no scheduler and no kubelet: Pods are created but stay
 * {@code Pending}, so a Deployment never becomes available and a Job never completes by itself. What
 * the tests need of a kubelet, they do themselves: {@link #setStatus} writes an object's status
 * (a Pod's {@code Ready} condition) as its node would. Without the controllers
 * ({@code LocalCluster.builder().controllers(false)}, {@code -Dkopf4j.envtest.controllers=false}, or
 * binaries without kube-controller-manager), owned children stay after their owner is deleted, a
 * deleted namespace stays {@code Terminating}, and {@code setStatus} plays the workload controllers
 * too.
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
    /** The JVM-wide switch for the controllers: {@code -Dkopf4j.envtest.controllers=false} turns them off. */
    static final String CONTROLLERS_PROPERTY = "kopf4j.envtest.controllers";
    private static final AtomicBoolean MISSING_CONTROLLERS_SAID = new AtomicBoolean();
    /** What etcd and kube-apiserver log when a port is taken. */
    private static final String PORT_TAKEN = "address already in use";
    private final Thread shutdownHook;
    /** The API server's audit log, if asked for ({@code -Dkopf4j.envtest.audit=true}); else null. */
    private final AuditLog audit;
    private final boolean controllers;
    private ControlPlaneProcess etcd;
    private ControlPlaneProcess apiServer;
    /** kube-controller-manager, while it runs; null without controllers. */
    private ControlPlaneProcess controllerManager;
    private KubernetesClient client;
    private boolean apiServerFrozen;
    private boolean closed;

    private LocalCluster(Path binaries, List<String> apiServerFlags, boolean controllers)
            throws IOException, GeneralSecurityException {
        this.controllers = controllers;
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
     * Starts a cluster with the binaries {@link EnvtestAssets#locate()} finds, and its controllers
     * if they are among them.
     *
     * @return the running cluster, which {@code close()} stops and deletes
     */
    public static LocalCluster start() {
        return builder().start();
    }

    /**
     * Starts a cluster with the binaries in {@code binaries} (kube-apiserver, etcd, kubectl, and
     * kube-controller-manager if there).
     *
     * @param binaries the directory with the binaries, e.g. {@code Path.of("/usr/local/kubebuilder/bin")}
     * @return the running cluster, which {@code close()} stops and deletes
     */
    public static LocalCluster start(Path binaries) {
        return builder().binaries(binaries).start();
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
        return builder().apiServerFlags(apiServerFlags).start();
    }

    /**
     * A cluster to start with other choices than the defaults.
     *
     * <pre>{@code
     * // A control plane alone: no garbage collector, no workload controllers.
     * LocalCluster cluster = LocalCluster.builder().controllers(false).start();
     * }</pre>
     *
     * @return a builder with the defaults: the binaries {@link EnvtestAssets#locate()} finds, no
     *         extra API server flags, the controllers on (unless {@code -Dkopf4j.envtest.controllers=false})
     */
    public static Builder builder() {
        return new Builder();
    }

    /** {@return whether the controllers run unless asked otherwise: unless {@code -Dkopf4j.envtest.controllers=false}} */
    static boolean controllersByDefault() {
        return !"false".equalsIgnoreCase(System.getProperty(CONTROLLERS_PROPERTY, "true"));
    }

    /** The choices of a cluster to start; see {@link LocalCluster#builder()}. */
    public static final class Builder {
        private Path binaries;
        private List<String> apiServerFlags = List.of();
        private boolean controllers = controllersByDefault();

        private Builder() {
        }

        /**
         * The directory with the binaries (kube-apiserver, etcd, kubectl, kube-controller-manager).
         *
         * @param directory e.g. {@code Path.of("/usr/local/kubebuilder/bin")}
         * @return this builder
         */
        public Builder binaries(Path directory) {
            this.binaries = directory;
            return this;
        }

        /**
         * Flags for the API server besides its own.
         *
         * @param flags e.g. {@code List.of("--watch-cache=false")}
         * @return this builder
         */
        public Builder apiServerFlags(List<String> flags) {
            this.apiServerFlags = List.copyOf(flags);
            return this;
        }

        /**
         * Whether kube-controller-manager runs (when the binaries include it): the garbage
         * collector, namespace deletion, the workload controllers.
         *
         * @param on false for a control plane alone
         * @return this builder
         */
        public Builder controllers(boolean on) {
            this.controllers = on;
            return this;
        }

        /**
         * Starts the cluster.
         *
         * @return the running cluster, which {@code close()} stops and deletes
         */
        public LocalCluster start() {
            return LocalCluster.start(binaries == null ? EnvtestAssets.locate() : binaries, apiServerFlags, controllers);
        }
    }

    /**
     * The ports are picked free, then bound by the processes a moment later: meanwhile another
     * process (or an outgoing connection's ephemeral port) may take one. Such a start is tried again
     * on new ports, a few times, rather than failing a test run on a coincidence.
     */
    private static LocalCluster start(Path binaries, List<String> apiServerFlags, boolean controllers) {
        CoreAccess.require(Resource.class.getModule(), LocalCluster.class.getModule());
        for (int attempt = 1; ; attempt++) {
            try {
                return startOnce(binaries, apiServerFlags, controllers);
            } catch (IllegalStateException e) {
                if (attempt >= PORT_ATTEMPTS || e.getMessage() == null || !e.getMessage().contains(PORT_TAKEN)) {
                    throw e;
                }
                LOG.info("A port of the local cluster was taken before its process bound it; starting again on new ports.");
            }
        }
    }

    private static LocalCluster startOnce(Path binaries, List<String> apiServerFlags, boolean controllers) {
        long began = System.nanoTime();
        LocalCluster cluster;
        try {
            cluster = new LocalCluster(binaries, apiServerFlags, controllers);
        } catch (IOException | GeneralSecurityException e) {
            throw new IllegalStateException("cannot prepare a local cluster: " + e.getMessage(), e);
        }
        try {
            cluster.etcd = cluster.plane.startEtcd();
            long etcdReady = System.nanoTime();
            cluster.startApiServer();
            cluster.plane.writeKubeconfig();
            long apiServerReady = System.nanoTime();
            cluster.startControllers();
            LOG.info("Local cluster started in {} s (etcd {} s, kube-apiserver {} s, kube-controller-manager {}): {}, Kubernetes {}, etcd {}, {}, {}",
                    seconds(System.nanoTime() - began), seconds(etcdReady - began), seconds(apiServerReady - etcdReady),
                    cluster.controllerManager == null ? "off" : seconds(System.nanoTime() - apiServerReady) + " s",
                    cluster.serverUrl(), cluster.serverVersion(), cluster.etcdVersion(), cluster.etcd.describe(),
                    cluster.apiServer.describe());
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
        return audit().calls(user);
    }

    /**
     * How many times this user made each kind of request so far, in the order of their first time, as
     * the audit log recorded them: what one client costs the API server, not counting any other (the
     * API server's own {@code apiserver_request_total} counts every client's, controllers' too). Kept
     * as {@link #apiCalls(String)} is.
     *
     * <pre>{@code
     * long eventWrites = cluster.apiCallCounts("events-test").entrySet().stream()
     *         .filter(call -> call.getKey().resource().equals("events")).mapToLong(Map.Entry::getValue).sum();
     * }</pre>
     *
     * @param user the user name, e.g. the common name of {@link #kubeconfigFor(String, String...)}
     * @return each kind of request with its count
     * @throws IllegalStateException if the cluster keeps no audit log
     */
    public Map<ApiCall, Long> apiCallCounts(String user) {
        return audit().counts(user);
    }

    private AuditLog audit() {
        if (audit == null) {
            throw new IllegalStateException("this cluster keeps no audit log: start it with -D" + AuditLog.PROPERTY + "=true");
        }
        return audit;
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

    /**
     * etcd's version, as etcd says it on its client port ({@code GET /version}). The binaries that
     * {@code scripts/envtest.sh} builds have etcd 3.5; 3.4 only where it could fetch no 3.5 (its fallback).
     *
     * @return e.g. {@code 3.5.30}
     */
    public String etcdVersion() {
        HttpRequest get = HttpRequest.newBuilder(URI.create(plane.etcdUrl() + "/version")).timeout(Duration.ofSeconds(30)).GET().build();
        return String.valueOf(etcdAnswer("/version", get).get("etcdserver"));
    }

    /** The process ids of etcd and kube-apiserver (those running). */
    synchronized List<Long> processIds() {
        List<Long> pids = new ArrayList<>();
        for (ControlPlaneProcess process : new ControlPlaneProcess[]{etcd, apiServer, controllerManager}) {
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
     * Plays the kubelet for the Pods a workload controller makes (no node runs them here): waits
     * until {@code count} Pods with these labels exist, and marks each {@code Running} and
     * {@code Ready} as it appears. A StatefulSet makes its Pods one at a time, each once the one
     * before is ready; a Deployment then becomes available, a StatefulSet reports its ready replicas.
     *
     * <pre>{@code
     * cluster.readyPods("default", Map.of("app", "web"), 3);   // a StatefulSet "web" of 3 replicas
     * }</pre>
     *
     * @param namespace the Pods' namespace
     * @param labels the labels of the workload's Pod template
     * @param count how many Pods to wait for and make ready
     * @throws IllegalStateException if fewer than {@code count} appear within a minute
     */
    public void readyPods(String namespace, Map<String, String> labels, int count) {
        Map<String, Object> ready = Map.of("phase", "Running", "conditions", List.of(
                Map.of("type", "Ready", "status", "True"), Map.of("type", "ContainersReady", "status", "True")));
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        Set<String> marked = new HashSet<>();
        while (marked.size() < count) {
            for (var pod : client().pods().inNamespace(namespace).withLabels(labels).list().getItems()) {
                if (marked.size() < count && marked.add(pod.getMetadata().getName())) {
                    setStatus("v1", "Pod", namespace, pod.getMetadata().getName(), ready);
                }
            }
            if (marked.size() < count) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException(marked.size() + " of " + count + " Pods labelled " + labels + " in "
                            + namespace + " appeared within a minute" + (controllersRunning() ? "" : "; no controllers run"));
                }
                ControlPlane.sleepQuietly(Duration.ofMillis(200));
            }
        }
    }

    /**
     * Sets fields of an object's status as its controller or its node would: a JSON merge patch of
     * {@code status}, so the fields given replace theirs, the others stay, and a null value removes
     * one. With the controllers running, a workload's status is theirs to write (they would overwrite
     * it): make its Pods ready instead ({@link #readyPods}). It goes to the {@code /status} subresource where the resource has one (the main endpoint
     * ignores the status there), else to the object itself.
     *
     * <pre>{@code
     * cluster.setStatus("v1", "PersistentVolumeClaim", "default", "data", Map.of("phase", "Bound"));
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

    /** Starts kube-controller-manager if asked for and among the binaries; says once why not if asked for and missing. */
    private void startControllers() {
        if (!controllers) {
            return;
        }
        if (!plane.hasControllerManager()) {
            if (!MISSING_CONTROLLERS_SAID.getAndSet(true)) {
                LOG.info("No kube-controller-manager of kube-apiserver's version beside it in {}: no controllers run (no garbage"
                        + " collector, no namespace deletion). scripts/envtest.sh builds one into its cache.", plane.binaries);
            }
            return;
        }
        controllerManager = plane.startControllerManager();
    }

    /**
     * {@return whether kube-controller-manager runs: owned children go with their owner, deleted
     * namespaces go, Deployments make ReplicaSets and Pods}
     */
    public synchronized boolean controllersRunning() {
        return controllerManager != null && controllerManager.isAlive();
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
     * Kills etcd, the API server and the controller manager at once (SIGKILL), as a crash of the
     * control plane's machine would, but for the data: what etcd has written stays (in the operating system's files, even
     * without fsync). {@link #restartControlPlane()} starts them again on it.
     */
    public synchronized void killControlPlane() {
        if (controllerManager != null) {
            controllerManager.kill();
            controllerManager = null;
        }
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
     * Starts etcd on its data and ports, then the API server (and the controllers), as after {@link #killControlPlane()},
     * and waits until the API server is ready. The revision, so the resourceVersions, go on from
     * where they were; the API server's watch cache starts empty.
     */
    public synchronized void restartControlPlane() {
        if (etcd == null) {
            etcd = plane.startEtcd();
        }
        startApiServer();
        if (controllerManager == null) {
            startControllers();
        }
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
        HttpRequest post = HttpRequest.newBuilder(URI.create(plane.etcdUrl() + path))
                .timeout(Duration.ofSeconds(30))
                .POST(HttpRequest.BodyPublishers.ofString(client().getKubernetesSerialization().asJson(request))).build();
        return etcdAnswer(path, post);
    }

    /** etcd's answer to a request on its client port, a JSON object. */
    private Map<?, ?> etcdAnswer(String path, HttpRequest request) {
        try {
            HttpResponse<String> response = plane.http.send(request, HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() != 200) {
                throw new IllegalStateException("etcd answered " + path + " with " + response.statusCode() + ": " + response.body());
            }
            return client().getKubernetesSerialization().unmarshal(response.body(), Map.class);
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

    /** Stops its processes and deletes the cluster's files. Safe to call more than once. */
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
        if (controllerManager != null) {
            controllerManager.stop();
            controllerManager = null;
        }
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
