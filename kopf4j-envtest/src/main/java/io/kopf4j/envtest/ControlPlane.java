package io.kopf4j.envtest;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a local control plane is made of and how its processes start: a directory (the PKI, etcd's
 * data, the logs, the kubeconfig), three ports on 127.0.0.1 (and one picked when the controller
 * manager starts), and the binaries. Shared by the
 * throw-away {@link LocalCluster}, whose processes end with the JVM, and the {@link KeptCluster} of
 * {@code kopf4j cluster}, whose processes outlive it ({@code detached}).
 *
 * <pre>{@code
 * ControlPlane plane = new ControlPlane(binaries, dir, Pki.create(dir.resolve("pki")), Ports.free(), List.of(), false);
 * ControlPlaneProcess etcd = plane.startEtcd();
 * ControlPlaneProcess apiServer = plane.startApiServer();
 * plane.writeKubeconfig();
 * ControlPlaneProcess controllers = plane.hasControllerManager() ? plane.startControllerManager() : null;
 * }</pre>
 */
final class ControlPlane implements AutoCloseable {
    static final String LOOPBACK = InetAddress.getLoopbackAddress().getHostAddress();
    private static final Duration START_TIMEOUT = Duration.ofSeconds(90);
    static final String CONTROLLER_MANAGER = "kube-controller-manager";
    static final String CONTROLLER_MANAGER_USER = "system:kube-controller-manager";
    /**
     * The controllers that work without nodes, a scheduler or a cloud: cascading deletion, namespace
     * deletion, the workload controllers (which make ReplicaSets and Pods; the Pods stay Pending,
     * with no kubelet to run them), and the PVC protection finalizer's removal. Left out: those that
     * would fill every namespace with objects tests do not expect (service accounts, the root CA's
     * ConfigMap, legacy token Secrets), bind volumes (a test's PVC status would not stay as it set it),
     * start real Jobs from CronJobs, or need nodes and endpoints.
     */
    /** The minor version whose controller manager no longer has the insecure port, nor its {@code --port} flag. */
    private static final int INSECURE_PORT_REMOVED = 24;
    /** Per directory of binaries: the minor version of a controller manager that matches its API server, or -1. */
    private static final Map<Path, Integer> MATCHING_CONTROLLER_MANAGERS = new ConcurrentHashMap<>();
    static final List<String> CONTROLLERS = List.of("garbagecollector", "namespace", "deployment", "replicaset",
            "statefulset", "job", "pvc-protection");

    final Path binaries;
    final Path dir;
    final Pki pki;
    final Ports ports;
    final HttpClient http;
    /** Every process started, ready or not: for stopping those of a start that is given up. */
    final List<ControlPlaneProcess> launched = new CopyOnWriteArrayList<>();
    private final List<String> apiServerFlags;
    private final boolean detached;

    /**
     * The ports of etcd (clients and peers) and of the API server.
     *
     * @param etcd etcd's client port
     * @param etcdPeer etcd's peer port
     * @param apiServer the API server's secure port
     */
    record Ports(int etcd, int etcdPeer, int apiServer) {
        /** Distinct free ports: all held at once while picked, since a port let go may be picked again. */
        static Ports free() {
            List<ServerSocket> held = new ArrayList<>();
            try {
                for (int i = 0; i < 3; i++) {
                    held.add(new ServerSocket(0, 1, InetAddress.getLoopbackAddress()));
                }
                return new Ports(held.get(0).getLocalPort(), held.get(1).getLocalPort(), held.get(2).getLocalPort());
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
    }

    ControlPlane(Path binaries, Path dir, Pki pki, Ports ports, List<String> apiServerFlags, boolean detached)
            throws IOException, GeneralSecurityException {
        this.binaries = binaries;
        this.dir = PrivateFiles.directory(dir);   // its keys, kubeconfig and etcd's data: the owner's alone
        this.pki = pki;
        this.ports = ports;
        this.apiServerFlags = List.copyOf(apiServerFlags);
        this.detached = detached;
        this.http = HttpClient.newBuilder().sslContext(pki.adminSslContext()).connectTimeout(Duration.ofSeconds(2)).build();
    }

    /** The API server's URL, e.g. {@code https://127.0.0.1:41234}. */
    String serverUrl() {
        return "https://" + LOOPBACK + ":" + ports.apiServer();
    }

    /** etcd's client URL (plain HTTP, on loopback). */
    String etcdUrl() {
        return "http://" + LOOPBACK + ":" + ports.etcd();
    }

    /** The admin kubeconfig, once {@link #writeKubeconfig()} has written it. */
    Path kubeconfig() {
        return dir.resolve("kubeconfig");
    }

    /** Where a process's output goes. */
    Path log(String process) {
        return dir.resolve("logs").resolve(process + ".log");
    }

    /** Starts etcd on its data in the directory and waits until it is healthy. */
    ControlPlaneProcess startEtcd() {
        String peerUrl = "http://" + LOOPBACK + ":" + ports.etcdPeer();
        ControlPlaneProcess etcd = launch("etcd", List.of(binary("etcd"),
                "--name=kopf4j",
                "--data-dir=" + dir.resolve("etcd-data"),
                "--listen-client-urls=" + etcdUrl(),
                "--advertise-client-urls=" + etcdUrl(),
                "--listen-peer-urls=" + peerUrl,
                "--initial-advertise-peer-urls=" + peerUrl,
                "--initial-cluster=kopf4j=" + peerUrl,
                "--unsafe-no-fsync=true",
                // zap: etcd 3.5's only logger, and one of 3.4's, whose default (capnslog) warns that it is
                // deprecated; to stderr, that is its log file, even under systemd (whose journal "default" may pick).
                "--logger=zap",
                "--log-outputs=stderr"));
        awaitHttp(etcd, etcdUrl() + "/health");
        return etcd;
    }

    /** Starts the API server on etcd and waits until it is ready and serves the default namespace. */
    ControlPlaneProcess startApiServer() {
        List<String> command = new ArrayList<>(List.of(binary("kube-apiserver"),
                "--bind-address=" + LOOPBACK,
                "--advertise-address=" + LOOPBACK,
                "--secure-port=" + ports.apiServer(),
                "--cert-dir=" + pki.caCert.getParent(),
                "--tls-cert-file=" + pki.serverCert,
                "--tls-private-key-file=" + pki.serverKey,
                "--client-ca-file=" + pki.caCert,
                "--etcd-servers=" + etcdUrl(),
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
        ControlPlaneProcess apiServer = launch("kube-apiserver", command);
        awaitHttp(apiServer, serverUrl() + "/readyz");
        awaitHttp(apiServer, serverUrl() + "/api/v1/namespaces/default");
        return apiServer;
    }

    /**
     * Whether the binaries include a kube-controller-manager of the API server's own version: the
     * archives of envtest ship none, the Debian build and the cache have one. Another version does
     * not run (an older controller manager calls APIs a newer server no longer serves, a newer one
     * has other flags).
     */
    boolean hasControllerManager() {
        return controllerManagerMinor() >= 0;
    }

    /**
     * The minor version of the kube-controller-manager beside the API server, when both say the same
     * version ({@code --version}); -1 when there is none, or it is of another version. Asked once per
     * directory of binaries.
     */
    private int controllerManagerMinor() {
        return MATCHING_CONTROLLER_MANAGERS.computeIfAbsent(binaries, dir -> {
            if (!Files.isExecutable(dir.resolve(CONTROLLER_MANAGER))) {
                return -1;
            }
            String version = version(dir.resolve(CONTROLLER_MANAGER));
            Matcher minor = Pattern.compile("v1\\.(\\d+)\\.").matcher(version);
            return version.equals(version(dir.resolve("kube-apiserver"))) && minor.find() ? Integer.parseInt(minor.group(1)) : -1;
        });
    }

    /** What a binary says with {@code --version} ({@code Kubernetes v1.20.2}), or empty if it cannot say. */
    private static String version(Path binary) {
        try {
            Process process = new ProcessBuilder(binary.toString(), "--version").redirectErrorStream(true).start();
            String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
            return process.waitFor() == 0 ? output : "";
        } catch (IOException e) {
            return "";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "";
        }
    }

    /**
     * Starts kube-controller-manager on the API server with the controllers that a cluster without
     * nodes can run, and waits until it is healthy. Its client certificate is its own user
     * ({@code system:kube-controller-manager}, in {@code system:masters}), so that the API calls of
     * the operator under test ({@link AuditLog}) are told apart from the controllers'.
     */
    ControlPlaneProcess startControllerManager() {
        try {
            Path pkiDir = pki.caCert.getParent();
            Path[] client = pki.client(pkiDir, CONTROLLER_MANAGER_USER, "system:masters");
            Path[] serving = pki.server(pkiDir, CONTROLLER_MANAGER);
            Path kubeconfig = dir.resolve(CONTROLLER_MANAGER + ".kubeconfig");
            PrivateFiles.write(kubeconfig, kubeconfigYaml(CONTROLLER_MANAGER_USER, certificateCredentials(client[0], client[1]), "default"));
            int port = freePort();
            List<String> command = new ArrayList<>(List.of(binary(CONTROLLER_MANAGER),
                    "--kubeconfig=" + kubeconfig,
                    "--controllers=" + String.join(",", CONTROLLERS),
                    "--use-service-account-credentials=false",   // every controller is the kubeconfig's user
                    "--leader-elect=false",
                    "--bind-address=" + LOOPBACK,
                    "--secure-port=" + port,
                    "--tls-cert-file=" + serving[0],
                    "--tls-private-key-file=" + serving[1],
                    // The defaults (20/s, bursts of 30) would throttle the controllers behind a benchmark's objects.
                    "--kube-api-qps=100",
                    "--kube-api-burst=200",
                    "--profiling=false"));
            if (controllerManagerMinor() < INSECURE_PORT_REMOVED) {
                command.add("--port=0");   // it also serves plain HTTP on 10252 by default: parallel clusters would collide
            }
            ControlPlaneProcess process = launch(CONTROLLER_MANAGER, command);
            awaitHttp(process, "https://" + LOOPBACK + ":" + port + "/healthz");
            return process;
        } catch (IOException | GeneralSecurityException e) {
            throw new IllegalStateException("cannot prepare kube-controller-manager's certificates: " + e.getMessage(), e);
        }
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException("no free port on loopback", e);
        }
    }

    /** Writes the admin kubeconfig (cluster-admin through the system:masters group). */
    void writeKubeconfig() {
        try {
            PrivateFiles.write(kubeconfig(), kubeconfigYaml("kopf4j-admin", certificateCredentials(pki.adminCert, pki.adminKey), "default"));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + kubeconfig(), e);
        }
    }

    /** A client certificate and its key, as a kubeconfig's user has them. */
    static String certificateCredentials(Path certificate, Path key) throws IOException {
        return "client-certificate-data: " + Pki.base64(certificate) + "\n    client-key-data: " + Pki.base64(key);
    }

    /** A kubeconfig for this cluster with the user's credentials (YAML lines under {@code user:}) and namespace. */
    String kubeconfigYaml(String user, String credentials, String namespace) throws IOException {
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

    @Override
    public void close() {
        http.close();
    }

    private ControlPlaneProcess launch(String name, List<String> command) {
        try {
            ControlPlaneProcess process = detached ? ControlPlaneProcess.startDetached(name, command, log(name))
                    : ControlPlaneProcess.start(name, command, log(name));
            launched.add(process);
            return process;
        } catch (IOException e) {
            throw new IllegalStateException("cannot start " + command.get(0) + ": " + e.getMessage(), e);
        }
    }

    /** Waits for a 200 from the URL; a process that exits or times out meanwhile is stopped, and named with its log. */
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
                process.stop();
                throw new IllegalStateException("interrupted while waiting for " + url, e);
            }
            if (!process.isAlive() || System.nanoTime() > deadline) {
                String failure = (process.isAlive() ? "timed out waiting for " : "exited before serving ") + url + ": "
                        + process.describe() + "; its log " + process.log() + " ends with:\n" + process.tail(15);
                process.stop();
                throw new IllegalStateException(failure);
            }
            sleepQuietly(Duration.ofMillis(100));
        }
    }

    static void sleepQuietly(Duration duration) {
        try {
            Thread.sleep(duration);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    private String binary(String name) {
        return binaries.resolve(name).toString();
    }
}
