package io.kopf4j.testing;

import io.fabric8.kubernetes.api.model.APIResource;
import io.fabric8.kubernetes.api.model.APIResourceList;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.authentication.TokenRequest;
import io.fabric8.kubernetes.api.model.authentication.TokenRequestBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
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
import java.util.concurrent.TimeUnit;
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
 * their owner is deleted (cascading deletion is the garbage collector's job); a deleted namespace
 * stays {@code Terminating} with its objects. What the tests need of a controller, they do themselves: {@link #setStatus}
 * writes an object's status as its controller would, and owned children are deleted explicitly.
 *
 * <p>The binaries are found by {@link EnvtestAssets}: {@code KUBEBUILDER_ASSETS}, the cache, or
 * provisioned on first use.
 */
public final class LocalCluster implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(LocalCluster.class);
    private static final Duration START_TIMEOUT = Duration.ofSeconds(90);
    private static final Duration CRD_TIMEOUT = Duration.ofSeconds(60);
    private static final String LOOPBACK = InetAddress.getLoopbackAddress().getHostAddress();

    private final Path binaries;
    private final Path state;
    private final Pki pki;
    private final Path kubeconfig;
    private final int etcdPort;
    private final int etcdPeerPort;
    private final int apiServerPort;
    private final List<String> apiServerFlags;
    private final HttpClient http;
    /** How often a start is tried when a port it picked was taken meanwhile. */
    private static final int PORT_ATTEMPTS = 3;
    /** What etcd and kube-apiserver log when a port is taken. */
    private static final String PORT_TAKEN = "address already in use";
    private final Thread shutdownHook;
    private ControlPlaneProcess etcd;
    private ControlPlaneProcess apiServer;
    private KubernetesClient client;
    private boolean apiServerFrozen;
    private boolean closed;

    private LocalCluster(Path binaries, List<String> apiServerFlags) throws IOException, GeneralSecurityException {
        this.binaries = binaries;
        this.apiServerFlags = List.copyOf(apiServerFlags);
        this.state = Files.createTempDirectory("kopf4j-cluster-");
        this.pki = new Pki(state.resolve("pki"));
        int[] ports = freePorts(3);
        this.etcdPort = ports[0];
        this.etcdPeerPort = ports[1];
        this.apiServerPort = ports[2];
        this.kubeconfig = state.resolve("kubeconfig");
        this.http = HttpClient.newBuilder().sslContext(pki.adminSslContext()).connectTimeout(Duration.ofSeconds(2)).build();
        this.shutdownHook = new Thread(this::stopProcesses, "kopf4j-local-cluster-shutdown");
        Runtime.getRuntime().addShutdownHook(shutdownHook);
    }

    /** Starts a cluster with the binaries {@link EnvtestAssets#locate()} finds. */
    public static LocalCluster start() {
        return start(EnvtestAssets.locate());
    }

    /** Starts a cluster with the binaries in {@code binaries} (kube-apiserver, etcd, kubectl). */
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
            cluster.startEtcd();
            long etcdReady = System.nanoTime();
            cluster.startApiServer();
            cluster.writeKubeconfig();
            LOG.info("Local cluster started in {} s (etcd {} s, kube-apiserver {} s): {}, Kubernetes {}, {}, {}",
                    seconds(System.nanoTime() - began), seconds(etcdReady - began), seconds(System.nanoTime() - etcdReady),
                    cluster.serverUrl(), cluster.serverVersion(), cluster.etcd.describe(), cluster.apiServer.describe());
            return cluster;
        } catch (RuntimeException | Error e) {
            cluster.close();
            throw e;
        }
    }

    /** The API server's URL, e.g. {@code https://127.0.0.1:41234}. */
    public String serverUrl() {
        return "https://" + LOOPBACK + ":" + apiServerPort;
    }

    /** An admin kubeconfig for this cluster (cluster-admin through the system:masters group). */
    public Path kubeconfig() {
        return kubeconfig;
    }

    /**
     * A kubeconfig for another user (and groups), authenticated by a client certificate: for
     * testing what an operator does with limited RBAC permissions. Grant them with Roles.
     */
    public Path kubeconfigFor(String user, String... groups) {
        try {
            Path[] credentials = pki.client(state.resolve("pki"), user, groups);
            Path file = state.resolve("kubeconfig-" + user);
            Files.writeString(file, kubeconfigYaml(user, certificateCredentials(credentials[0], credentials[1]), "default"));
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
            Files.writeString(file, kubeconfigYaml(user, "token: " + token, namespace));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return file;
    }

    /** The directory with the binaries; {@code kubectl} among them. */
    public Path binaries() {
        return binaries;
    }

    /** The server's version as it reports it, e.g. {@code v1.20.2}. */
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

    /** An admin client, closed with the cluster. */
    public synchronized KubernetesClient client() {
        if (client == null) {
            try {
                client = new KubernetesClientBuilder()
                        .withConfig(Config.fromKubeconfig(null, Files.readString(kubeconfig), kubeconfig.toString()))
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
     */
    public void apply(Path... files) {
        List<CustomResourceDefinition> crds = new ArrayList<>();
        for (Path file : files) {
            try (InputStream in = Files.newInputStream(file)) {
                for (HasMetadata item : client().load(in).items()) {
                    HasMetadata applied = client().resource(item).fieldManager("kopf4j").forceConflicts().serverSideApply();
                    if (applied instanceof CustomResourceDefinition crd) {
                        crds.add(crd);
                    }
                }
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read " + file, e);
            }
        }
        crds.forEach(this::awaitServed);
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
     * @param namespace the object's namespace, or null for a cluster-scoped object
     * @return the object as the API server stored it
     */
    public GenericKubernetesResource setStatus(String apiVersion, String kind, String namespace, String name,
                                               Map<String, Object> status) {
        String json = client().getKubernetesSerialization().asJson(Map.of("status", status));
        var objects = client().genericKubernetesResources(apiVersion, kind);
        var object = namespace == null ? objects.withName(name) : objects.inNamespace(namespace).withName(name);
        PatchContext merge = PatchContext.of(PatchType.JSON_MERGE);
        return hasStatusSubresource(apiVersion, kind) ? object.subresource("status").patch(merge, json) : object.patch(merge, json);
    }

    private boolean hasStatusSubresource(String apiVersion, String kind) {
        APIResourceList resources = client().getApiResources(apiVersion);
        if (resources == null) {
            throw new IllegalArgumentException("the API server serves no " + apiVersion);
        }
        String plural = resources.getResources().stream()
                .filter(resource -> kind.equals(resource.getKind()) && !resource.getName().contains("/"))
                .map(APIResource::getName).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("the API server serves no " + kind + " in " + apiVersion));
        return resources.getResources().stream().anyMatch(resource -> (plural + "/status").equals(resource.getName()));
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
            startEtcd();
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
        HttpRequest post = HttpRequest.newBuilder(URI.create("http://" + LOOPBACK + ":" + etcdPort + path))
                .timeout(Duration.ofSeconds(30))
                .POST(HttpRequest.BodyPublishers.ofString(serialization.asJson(request))).build();
        try {
            HttpResponse<String> response = http.send(post, HttpResponse.BodyHandlers.ofString());
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
        List<String> command = new ArrayList<>(List.of(binary("kube-apiserver"),
                "--bind-address=" + LOOPBACK,
                "--advertise-address=" + LOOPBACK,
                "--secure-port=" + apiServerPort,
                "--cert-dir=" + state.resolve("pki"),
                "--tls-cert-file=" + pki.serverCert,
                "--tls-private-key-file=" + pki.serverKey,
                "--client-ca-file=" + pki.caCert,
                "--etcd-servers=http://" + LOOPBACK + ":" + etcdPort,
                "--authorization-mode=RBAC",
                "--service-account-issuer=https://kubernetes.default.svc.cluster.local",
                "--service-account-key-file=" + pki.serviceAccountPublicKey,
                "--service-account-signing-key-file=" + pki.serviceAccountKey,
                "--service-cluster-ip-range=10.0.0.0/24",
                "--disable-admission-plugins=ServiceAccount",
                // On by default since 1.13, named so that admission webhooks on 127.0.0.1 work whatever the default.
                "--enable-admission-plugins=MutatingAdmissionWebhook,ValidatingAdmissionWebhook",
                "--allow-privileged=true",
                "--profiling=false",
                "--endpoint-reconciler-type=none"));
        command.addAll(apiServerFlags);
        apiServer = launch("kube-apiserver", command);
        awaitHttp(apiServer, serverUrl() + "/readyz");
        awaitHttp(apiServer, serverUrl() + "/api/v1/namespaces/default");
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
        http.close();
        try {
            Runtime.getRuntime().removeShutdownHook(shutdownHook);
        } catch (IllegalStateException alreadyShuttingDown) {
            // The hook itself is running or has run.
        }
        deleteState();
        LOG.info("Local cluster {} stopped", serverUrl());
    }

    private void startEtcd() {
        String peerUrl = "http://" + LOOPBACK + ":" + etcdPeerPort;
        String clientUrl = "http://" + LOOPBACK + ":" + etcdPort;
        etcd = launch("etcd", List.of(binary("etcd"),
                "--name=kopf4j",
                "--data-dir=" + state.resolve("etcd-data"),
                "--listen-client-urls=" + clientUrl,
                "--advertise-client-urls=" + clientUrl,
                "--listen-peer-urls=" + peerUrl,
                "--initial-advertise-peer-urls=" + peerUrl,
                "--initial-cluster=kopf4j=" + peerUrl,
                "--unsafe-no-fsync=true"));
        awaitHttp(etcd, clientUrl + "/health");
    }

    private ControlPlaneProcess launch(String name, List<String> command) {
        try {
            return ControlPlaneProcess.start(name, command, state.resolve("logs").resolve(name + ".log"));
        } catch (IOException e) {
            throw new IllegalStateException("cannot start " + command.get(0) + ": " + e.getMessage(), e);
        }
    }

    private void awaitHttp(ControlPlaneProcess process, String url) {
        long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
        HttpRequest request = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(5)).build();
        while (true) {
            try {
                if (http.send(request, HttpResponse.BodyHandlers.discarding()).statusCode() == 200) {
                    return;
                }
            } catch (IOException e) {
                // Not listening yet.
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for " + url, e);
            }
            if (!process.isAlive() || System.nanoTime() > deadline) {
                throw new IllegalStateException((process.isAlive() ? "timed out waiting for " : "exited before serving ")
                        + url + ": " + process.describe() + "; its last log lines:\n" + process.tail(15));
            }
            sleepQuietly(Duration.ofMillis(100));
        }
    }

    private void awaitServed(CustomResourceDefinition crd) {
        String name = crd.getMetadata().getName();
        client().apiextensions().v1().customResourceDefinitions().withName(name).waitUntilCondition(
                current -> current != null && current.getStatus() != null && current.getStatus().getConditions() != null
                        && current.getStatus().getConditions().stream()
                        .anyMatch(c -> "Established".equals(c.getType()) && "True".equals(c.getStatus())),
                CRD_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
        // Established precedes the discovery documents by a moment; operators resolve through discovery.
        String group = crd.getSpec().getGroup();
        String plural = crd.getSpec().getNames().getPlural();
        long deadline = System.nanoTime() + CRD_TIMEOUT.toNanos();
        for (var version : crd.getSpec().getVersions()) {
            while (!discoveryLists(group + "/" + version.getName(), plural)) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("CRD " + name + " is established but not served at " + group + "/" + version.getName());
                }
                sleepQuietly(Duration.ofMillis(50));
            }
        }
    }

    private boolean discoveryLists(String groupVersion, String plural) {
        var resources = client().getApiResources(groupVersion);
        return resources != null && resources.getResources().stream().anyMatch(r -> plural.equals(r.getName()));
    }

    private void writeKubeconfig() {
        try {
            Files.writeString(kubeconfig, kubeconfigYaml("kopf4j-admin", certificateCredentials(pki.adminCert, pki.adminKey), "default"));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + kubeconfig, e);
        }
    }

    /** A client certificate and its key, as a kubeconfig's user has them. */
    private static String certificateCredentials(Path certificate, Path key) throws IOException {
        return "client-certificate-data: " + Pki.base64(certificate) + "\n    client-key-data: " + Pki.base64(key);
    }

    /** A kubeconfig for this cluster with the user's credentials (YAML lines under {@code user:}) and namespace. */
    private String kubeconfigYaml(String user, String credentials, String namespace) throws IOException {
        return """
                apiVersion: v1
                kind: Config
                clusters:
                - name: kopf4j-local
                  cluster:
                    server: %s
                    certificate-authority-data: %s
                users:
                - name: %s
                  user:
                    %s
                contexts:
                - name: kopf4j-local
                  context:
                    cluster: kopf4j-local
                    user: %s
                    namespace: %s
                current-context: kopf4j-local
                """.formatted(serverUrl(), Pki.base64(pki.caCert), user, credentials, user, namespace);
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

    private String binary(String name) {
        return binaries.resolve(name).toString();
    }

    /** Distinct free ports: all held at once while picked, since a port let go may be picked again. */
    private static int[] freePorts(int count) {
        List<ServerSocket> held = new ArrayList<>();
        try {
            for (int i = 0; i < count; i++) {
                held.add(new ServerSocket(0, 1, InetAddress.getLoopbackAddress()));
            }
            return held.stream().mapToInt(ServerSocket::getLocalPort).toArray();
        } catch (IOException e) {
            throw new UncheckedIOException("no free port on loopback", e);
        } finally {
            for (ServerSocket socket : held) {
                try {
                    socket.close();
                } catch (IOException ignored) {
                    // Closing a listening socket that never accepted loses nothing.
                }
            }
        }
    }

    private static void sleepQuietly(Duration duration) {
        try {
            Thread.sleep(duration);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    private static String seconds(long nanos) {
        return String.format(java.util.Locale.ROOT, "%.1f", nanos / 1e9);
    }
}
