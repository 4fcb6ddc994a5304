package io.kopf4j.envtest;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.kopf4j.OperatorException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * A local cluster that outlives the process that starts it ({@code kopf4j cluster start NAME}):
 * etcd and kube-apiserver as detached processes, everything in a data directory that persists: the
 * PKI, etcd's data, the logs, the kubeconfig, and a state file with the ports and the processes'
 * ids. Stopping keeps the data, so the next start has the same objects, certificates and ports. An
 * operator attaches to it by its kubeconfig ({@code kopf4j run --local-cluster NAME}) and leaves it
 * running when it exits. As {@link LocalCluster}, it runs kube-controller-manager beside them when the
 * binaries include it (the garbage collector, namespace deletion, the workload controllers; no
 * scheduler or kubelet), unless started with {@code controllers} false.
 *
 * <pre>{@code
 * KeptCluster cluster = KeptCluster.named("default");   // ~/.local/share/kopf4j/clusters/default
 * cluster.start();                                       // false if it was running already
 * Path kubeconfig = cluster.kubeconfig();
 * cluster.stop();                                        // the data stays for the next start
 * }</pre>
 */
public final class KeptCluster {
    private static final Pattern NAME = Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?");
    private static final String STATE = "cluster.properties";
    private static final String ETCD = "etcd";
    private static final String API_SERVER = "kube-apiserver";

    private final String name;
    private final Path dataDir;

    private KeptCluster(String name, Path dataDir) {
        this.name = name;
        this.dataDir = dataDir.toAbsolutePath().normalize();
    }

    /**
     * The cluster of this name in its default data directory ({@link #home()}{@code /NAME}).
     *
     * @param name the cluster's name, e.g. {@code "demo-1"}
     * @return the cluster, running or not
     * @throws OperatorException if the name is not a cluster's name ({@link #isName(String)})
     */
    public static KeptCluster named(String name) {
        return at(name, home().resolve(checked(name)));
    }

    /**
     * The running cluster of this name in its default data directory, for the commands that work on it.
     *
     * @param name the cluster's name, e.g. {@code "demo-1"}
     * @return the running cluster
     * @throws OperatorException saying how to start it, if it does not run
     */
    public static KeptCluster running(String name) {
        KeptCluster cluster = named(name);
        if (!cluster.isRunning()) {
            throw new OperatorException("local cluster " + name + " is not running: start it with `kopf4j cluster start " + name + "`");
        }
        return cluster;
    }

    /**
     * The cluster of this name whose data is in {@code dataDir}.
     *
     * @param name the cluster's name, e.g. {@code "demo-1"}
     * @param dataDir the cluster's data directory, e.g. {@code Path.of("target/cluster")}
     * @return the cluster, running or not
     * @throws OperatorException if the name is not a cluster's name ({@link #isName(String)})
     */
    public static KeptCluster at(String name, Path dataDir) {
        return new KeptCluster(checked(name), dataDir);
    }

    /**
     * {@return whether the text is a cluster's name: lowercase letters, digits and inner dashes}
     *
     * @param text the name to check, e.g. {@code "demo-1"}; null is none
     */
    public static boolean isName(String text) {
        return text != null && NAME.matcher(text).matches();
    }

    /**
     * {@return where the clusters' data directories are by default: {@code $XDG_DATA_HOME/kopf4j/clusters},
     * else {@code ~/.local/share/kopf4j/clusters}}
     */
    public static Path home() {
        String dataHome = System.getenv("XDG_DATA_HOME");
        Path base = dataHome == null || dataHome.isBlank()
                ? Path.of(System.getProperty("user.home"), ".local", "share") : Path.of(dataHome);
        return base.resolve("kopf4j").resolve("clusters");
    }

    /** {@return the clusters that have a data directory in {@link #home()}, by name} */
    public static List<KeptCluster> list() {
        if (!Files.isDirectory(home())) {
            return List.of();
        }
        try (Stream<Path> dirs = Files.list(home())) {
            return dirs.filter(dir -> Files.isRegularFile(dir.resolve(STATE)) && isName(dir.getFileName().toString()))
                    .map(dir -> new KeptCluster(dir.getFileName().toString(), dir))
                    .sorted(Comparator.comparing(KeptCluster::name)).toList();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list " + home(), e);
        }
    }

    /** {@return the cluster's name, e.g. {@code "demo-1"}} */
    public String name() {
        return name;
    }

    /** {@return the cluster's data directory, absolute} */
    public Path dataDir() {
        return dataDir;
    }

    /**
     * The admin kubeconfig, written at every start.
     *
     * @return {@code kubeconfig} in the data directory, whether it exists or not
     */
    public Path kubeconfig() {
        return dataDir.resolve("kubeconfig");
    }

    /** {@return the API server's URL, once the cluster has been started here} */
    public Optional<String> serverUrl() {
        String port = readState().getProperty(API_SERVER + ".port");
        return Optional.ofNullable(port).map(p -> "https://" + ControlPlane.LOOPBACK + ":" + p);
    }

    /** {@return whether kube-controller-manager runs beside it} */
    public boolean controllersRunning() {
        return process(ControlPlane.CONTROLLER_MANAGER).isPresent();
    }

    /** {@return whether both its processes run (etcd and kube-apiserver)} */
    public boolean isRunning() {
        return process(ETCD).isPresent() && process(API_SERVER).isPresent();
    }

    /**
     * Starts the cluster, unless it runs already, and returns once its API server is ready and its
     * kubeconfig written. A half-running cluster (one process died) is stopped and started again.
     *
     * @return true if it was started, false if it was running already
     * @throws IllegalStateException naming the port or the log at fault if it cannot start
     */
    public synchronized boolean start() {
        return start(true);
    }

    /**
     * Starts the cluster, unless it runs already, with or without its controllers
     * ({@code kopf4j cluster start --no-controllers}).
     *
     * @param controllers whether kube-controller-manager runs too, when the binaries include it
     * @return true if it was started, false if it was running already
     * @throws IllegalStateException naming the port or the log at fault if it cannot start
     */
    public synchronized boolean start(boolean controllers) {
        if (isRunning()) {
            keepControllers(controllers);
            return false;
        }
        stop();   // the process left of a half-running cluster
        Properties state = readState();
        ControlPlane.Ports ports = ports(state);
        try (ControlPlane plane = new ControlPlane(EnvtestAssets.locate(), dataDir, Pki.openOrCreate(dataDir.resolve("pki")),
                ports, List.of(), true)) {
            // Until both are ready and recorded, a failure or a Ctrl-C (the JVM's exit) stops what was started.
            Thread giveUp = new Thread(() -> plane.launched.forEach(ControlPlaneProcess::stop), "kopf4j-cluster-start-abort");
            Runtime.getRuntime().addShutdownHook(giveUp);
            try {
                state.setProperty(ETCD + ".pid", String.valueOf(plane.startEtcd().pid()));
                state.setProperty(API_SERVER + ".pid", String.valueOf(plane.startApiServer().pid()));
                writeState(state);
                plane.writeKubeconfig();
                state.remove(ControlPlane.CONTROLLER_MANAGER + ".pid");
                if (controllers) {
                    startControllers(plane, state);
                }
                writeState(state);
            } catch (IOException | RuntimeException e) {
                giveUp.run();
                throw e;
            } finally {
                try {
                    Runtime.getRuntime().removeShutdownHook(giveUp);
                } catch (IllegalStateException alreadyExiting) {
                    // A Ctrl-C meanwhile: the hook runs, and stops them.
                }
            }
        } catch (IOException | GeneralSecurityException e) {
            throw new IllegalStateException("cannot prepare local cluster " + name + " in " + dataDir + ": " + e.getMessage(), e);
        } catch (IllegalStateException e) {
            throw new IllegalStateException("cannot start local cluster " + name + ": " + e.getMessage(), e);
        }
        return true;
    }

    /**
     * A running cluster gets its controllers as asked: started again if they died (or were left out
     * at its start), stopped if no longer wanted.
     */
    private void keepControllers(boolean controllers) {
        Properties state = readState();
        if (!controllers) {
            process(ControlPlane.CONTROLLER_MANAGER).ifPresent(ControlPlaneProcess::terminate);
            state.remove(ControlPlane.CONTROLLER_MANAGER + ".pid");
        } else if (!controllersRunning()) {
            try (ControlPlane plane = new ControlPlane(EnvtestAssets.locate(), dataDir, Pki.openOrCreate(dataDir.resolve("pki")),
                    recordedPorts(state), List.of(), true)) {
                startControllers(plane, state);
            } catch (IOException | GeneralSecurityException e) {
                throw new IllegalStateException("cannot start the controllers of local cluster " + name + ": " + e.getMessage(), e);
            }
        }
        try {
            writeState(state);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the state of local cluster " + name + " in " + dataDir, e);
        }
    }

    /** Starts kube-controller-manager, if the binaries have one of the API server's version, and records it. */
    private static void startControllers(ControlPlane plane, Properties state) {
        if (plane.hasControllerManager()) {
            state.setProperty(ControlPlane.CONTROLLER_MANAGER + ".pid", String.valueOf(plane.startControllerManager().pid()));
        }
    }

    /** The ports recorded at the first start. */
    private static ControlPlane.Ports recordedPorts(Properties state) {
        return new ControlPlane.Ports(port(state, ETCD + ".port"), port(state, ETCD + ".peer-port"), port(state, API_SERVER + ".port"));
    }

    /** Stops its processes (the controllers, then the API server), keeping the data. Does nothing if none runs. */
    public synchronized void stop() {
        process(ControlPlane.CONTROLLER_MANAGER).ifPresent(ControlPlaneProcess::terminate);
        process(API_SERVER).ifPresent(ControlPlaneProcess::terminate);
        process(ETCD).ifPresent(ControlPlaneProcess::terminate);
    }

    /** Stops it and deletes its data directory. */
    public synchronized void delete() {
        stop();
        if (!Files.exists(dataDir)) {
            return;
        }
        try (Stream<Path> files = Files.walk(dataDir)) {
            for (Path file : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(file);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete " + dataDir, e);
        }
    }

    /** {@return the server's version as it reports it, e.g. {@code v1.31.0}} */
    public String serverVersion() {
        try (KubernetesClient client = client()) {
            return client.getKubernetesVersion().getGitVersion();
        } catch (KubernetesClientException e) {
            throw new IllegalStateException("local cluster " + name + " does not answer at " + serverUrl().orElse("?")
                    + ": " + e.getMessage(), e);
        }
    }

    /**
     * An admin client of its kubeconfig; the caller closes it.
     *
     * @return a new client
     */
    public KubernetesClient client() {
        try {
            return new KubernetesClientBuilder()
                    .withConfig(Config.fromKubeconfig(null, Files.readString(kubeconfig()), kubeconfig().toString())).build();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + kubeconfig(), e);
        }
    }

    /** The recorded process, if it still runs and is still that binary (not another process that got its id). */
    private Optional<ProcessHandle> process(String binary) {
        String pid = readState().getProperty(binary + ".pid");
        if (pid == null) {
            return Optional.empty();
        }
        return ProcessHandle.of(Long.parseLong(pid)).filter(ProcessHandle::isAlive)
                .filter(process -> process.info().command().map(command -> command.endsWith("/" + binary)).orElse(false));
    }

    /** The ports of the first start, kept in the state (and written there now), if still free. */
    private ControlPlane.Ports ports(Properties state) {
        ControlPlane.Ports ports = state.containsKey(API_SERVER + ".port") ? recordedPorts(state) : ControlPlane.Ports.free();
        checkFree(ports.etcd(), ETCD);
        checkFree(ports.etcdPeer(), "etcd's peers");
        checkFree(ports.apiServer(), API_SERVER);
        state.setProperty(ETCD + ".port", String.valueOf(ports.etcd()));
        state.setProperty(ETCD + ".peer-port", String.valueOf(ports.etcdPeer()));
        state.setProperty(API_SERVER + ".port", String.valueOf(ports.apiServer()));
        try {
            writeState(state);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the state of local cluster " + name + " in " + dataDir, e);
        }
        return ports;
    }

    private void checkFree(int port, String user) {
        try (ServerSocket ignored = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
            // Free: let go at once for the process to bind.
        } catch (IOException e) {
            throw new IllegalStateException("cannot start local cluster " + name + ": port " + port + " for " + user
                    + " on " + ControlPlane.LOOPBACK + " is taken by another process (the ports are kept in "
                    + dataDir.resolve(STATE) + "; delete it for new ones)");
        }
    }

    private static int port(Properties state, String key) {
        return Integer.parseInt(state.getProperty(key));
    }

    private Properties readState() {
        Properties state = new Properties();
        Path file = dataDir.resolve(STATE);
        if (Files.isRegularFile(file)) {
            try (InputStream in = Files.newInputStream(file)) {
                state.load(in);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read " + file, e);
            }
        }
        return state;
    }

    private void writeState(Properties state) throws IOException {
        PrivateFiles.directory(dataDir);
        try (OutputStream out = Files.newOutputStream(dataDir.resolve(STATE))) {
            state.store(out, "kopf4j cluster " + name + ": its ports, and its processes while it runs");
        }
    }

    private static String checked(String name) {
        if (!isName(name)) {
            throw new OperatorException("local cluster name " + (name == null ? "null" : "'" + name + "'")
                    + " must be lowercase letters, digits and inner dashes, e.g. default or demo-1");
        }
        return name;
    }

    @Override
    public String toString() {
        return "local cluster " + name + " (" + dataDir + ")";
    }
}
