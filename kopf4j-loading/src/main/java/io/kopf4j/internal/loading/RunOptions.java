package io.kopf4j.internal.loading;

import io.kopf4j.Operator;
import io.kopf4j.OperatorException;
import io.kopf4j.OperatorSettings;
import io.kopf4j.internal.logging.LogSetup;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * The options of {@code kopf4j run}, shared by the command line and by
 * {@code io.kopf4j.testing.KopfRunner}, so that a test runs the operator exactly as a user does.
 *
 * <pre>{@code
 * RunOptions options = new RunOptions();
 * new CommandLine(options).parseArgs("--namespace", "default", "-v", "Example.java");
 * Operator operator = options.operatorBuilder().build();
 * }</pre>
 */
@Command(name = "run", sortOptions = false)
public final class RunOptions {
    @Option(names = {"-n", "--namespace"}, paramLabel = "NAMESPACE",
            description = "Serve namespaces matching this pattern (repeatable): a name, a glob (team-*),"
                    + " a comma-separated list, !negations (!kube-*). Default: all namespaces.")
    List<String> namespaces = new ArrayList<>();

    @Option(names = {"-A", "--all-namespaces"}, description = "Serve all namespaces (the default when no -n is given).")
    boolean allNamespaces;

    @Option(names = {"-v", "--verbose"}, description = "Log kopf4j's debug messages too.")
    boolean verbose;

    @Option(names = {"-q", "--quiet"}, description = "Log only warnings and errors.")
    boolean quiet;

    @Option(names = {"-d", "--debug"}, description = "As --verbose.")
    boolean debug;

    @Option(names = "--log-format", paramLabel = "FORMAT", defaultValue = "full",
            description = "full (default), plain (the message only), or json (one object per line).")
    String logFormat;

    @Option(names = "--log-prefix", negatable = true,
            description = "Start object log lines with [namespace/name]. Default: on for full and plain, off for json.")
    Boolean logPrefix;

    @Option(names = "--log-prefix-kind",
            description = "Name the kind in the prefix, [namespace/Kind/name], for handlers of several resources"
                    + " (default: Kopf's [namespace/name]).")
    boolean logPrefixKind;

    @Option(names = "--log-refkey", paramLabel = "KEY", defaultValue = "object",
            description = "The JSON key of the object reference in json logs (default: object).")
    String logRefkey;

    @Option(names = "--kubeconfig", paramLabel = "FILE",
            description = "The kubeconfig file of the built-in login. Default: the pod's service account, then"
                    + " $KUBECONFIG or ~/.kube/config. Not used with @On.Login handlers.")
    Path kubeconfig;

    @Option(names = "--context", paramLabel = "NAME", description = "The kubeconfig context. Default: the current one.")
    String context;

    @Option(names = {"-L", "--liveness"}, paramLabel = "URL",
            description = "Kopf's liveness endpoint with the @On.Probe results, e.g. http://0.0.0.0:8080/healthz.")
    String liveness;

    @Option(names = "--health-probe-bind-address", paramLabel = "HOST:PORT",
            description = "Serve /healthz and /readyz (controller-runtime style) here, e.g. :8081.")
    String healthProbeAddress;

    @Option(names = "--metrics-bind-address", paramLabel = "HOST:PORT",
            description = "Serve /metrics in Prometheus' format here, e.g. :8080.")
    String metricsAddress;

    @Option(names = "--metrics-secure", negatable = true,
            description = "Serve /metrics over HTTPS, to scrapers whose token the API server authenticates and allows"
                    + " to get /metrics (TokenReview, SubjectAccessReview), as controller-runtime does.")
    boolean metricsSecure;

    @Option(names = "--metrics-cert-dir", paramLabel = "DIR",
            description = "With --metrics-secure: tls.crt and tls.key here (re-read when they change)."
                    + " Default: a self-signed certificate.")
    Path metricsCertDir;

    @Option(names = {"-m", "--module"}, paramLabel = "NAME",
            description = "Load the handlers of this class or package on the classpath ($CLASSPATH), as Kopf's -m"
                    + " imports a module (repeatable).")
    List<String> modules = new ArrayList<>();

    @Option(names = "--standalone", description = "Run without peering: never pause for other operators.")
    boolean standalone;

    @Option(names = {"-P", "--peering"}, paramLabel = "NAME",
            description = "Kopf's mandatory peering with this name: paused until the peering object exists."
                    + " Default: the peering object 'default' if it exists, else standalone.")
    String peering;

    @Option(names = {"-p", "--priority"}, paramLabel = "INT", description = "Kopf's peering priority (default 0).")
    Integer priority;

    @Option(names = "--dev", description = "Kopf's development mode: peering priority 666.")
    boolean dev;

    @Option(names = "--leader-election",
            description = "Elect a leader with a Lease: of the replicas, only the one holding it handles; the others"
                    + " stand by, ready, and take over when it goes.")
    boolean leaderElection;

    @Option(names = "--leader-election-id", paramLabel = "NAME",
            description = "The Lease's name: replicas with the same one elect one leader; different operators in one"
                    + " namespace need different names. Default: kopf4j-leader.")
    String leaderElectionId;

    @Option(names = "--leader-election-namespace", paramLabel = "NAMESPACE",
            description = "The Lease's namespace. Default: the pod's own in a cluster, else the one -n namespace,"
                    + " else default.")
    String leaderElectionNamespace;

    // Sharding (docs/sharding.md).
    @Option(names = "--shards", paramLabel = "auto|N",
            description = "Split the objects between replicas, each holding a Lease: auto (between the live replicas)"
                    + " or N slots (one replica per slot, spares stand by). Default: no sharding.")
    String shards;

    @Option(names = "--shard-group", paramLabel = "NAME",
            description = "The shard group (default: derived from the finalizer and the handlers' resources).")
    String shardGroup;

    @Option(names = "--shard-namespace", paramLabel = "NS",
            description = "Where the shard Leases are. Default: the pod's own in a cluster, else the one -n namespace,"
                    + " else default.")
    String shardNamespace;

    @Option(names = "--shard-identity", paramLabel = "NAME",
            description = "This replica's name in the group (default: the host name and a random suffix).")
    String shardIdentity;

    @Option(names = "--no-preflight",
            description = "Do not check the permissions before watching (settings.preflight.enabled = false): a missing"
                    + " one shows at its first 403 instead.")
    boolean noPreflight;

    @Parameters(paramLabel = "HANDLERS", arity = "0..*",
            description = "Where the handlers are: .java source files, .jar files, or class names on the classpath.")
    List<String> handlers = new ArrayList<>();

    /** Options at {@code kopf4j run}'s defaults, for picocli to set from the command line (or a test, as {@code KopfRunner} does). */
    public RunOptions() {
    }

    /** {@return whether kopf4j's debug messages are logged: {@code -v} or {@code -d}} */
    public boolean verbose() {
        return verbose || debug;
    }

    /**
     * Applies the log format, prefix and verbosity: the CLI does this before anything is logged.
     *
     * @throws OperatorException for an unknown format
     */
    public void configureLogging() {
        configureLogging(quiet);
    }

    /**
     * As {@link #configureLogging()}, for the commands that print a result (manifests, check-rbac):
     * they print nothing else, e.g. the startup handlers' {@code Activity 'configure' succeeded.},
     * unless asked with {@code --verbose}; warnings and errors still show.
     */
    public void configureLoggingForAResult() {
        configureLogging(!verbose());
    }

    private void configureLogging(boolean quietly) {
        LogSetup.Format format;
        try {
            format = LogSetup.parseFormat(logFormat);
        } catch (IllegalArgumentException e) {
            throw new OperatorException(e.getMessage());
        }
        LogSetup.configure(format, logPrefix, logRefkey, verbose(), quietly);
        LogSetup.prefixKind(logPrefixKind);
    }

    /** Kopf's defaults, with the options applied (the peering ones as Kopf's CLI does), and these choices. */
    private OperatorSettings settings(OperatorPlan.Choices choices) {
        OperatorSettings settings = new OperatorSettings();
        settings.peering.standalone = standalone;
        settings.peering.clusterwide = choices.namespaces().isEmpty();
        if (peering != null) {
            settings.peering.name = peering;
            settings.peering.mandatory = true;
        }
        if (priority != null || dev) {
            settings.peering.priority = dev ? 666 : priority;
        }
        settings.leadership.enabled = choices.leaderElection();
        if (leaderElectionId != null) {
            settings.leadership.leaseName = leaderElectionId;
        }
        settings.leadership.leaseNamespace = leaderElectionNamespace;
        applySharding(settings.sharding);
        settings.preflight.enabled = !noPreflight;
        settings.metrics.secure = choices.metricsSecure();
        settings.metrics.certDirectory = metricsCertDir;
        return settings;
    }

    private OperatorPlan.Choices choices() {
        return new OperatorPlan.Choices(namespaces, leaderElection, metricsSecure);
    }

    private void applySharding(OperatorSettings.Sharding sharding) {
        if (shards == null) {
            if (shardGroup != null || shardNamespace != null || shardIdentity != null) {
                throw new OperatorException("--shard-group, --shard-namespace and --shard-identity need --shards");
            }
            return;
        }
        if (shards.equals("auto")) {
            sharding.shards = OperatorSettings.Sharding.AUTO;
        } else if (shards.matches("[1-9]\\d{0,5}")) {
            sharding.shards = Integer.parseInt(shards);
        } else {
            throw new OperatorException("invalid --shards '" + shards + "': expected auto or a count of at least 1");
        }
        sharding.group = shardGroup;
        sharding.namespace = shardNamespace;
        sharding.identity = shardIdentity;
    }

    /** {@return whether only warnings and errors are logged: {@code -q}} */
    public boolean quiet() {
        return quiet;
    }

    /**
     * The handlers, settings and namespaces exactly as {@code run} would take them, for the commands
     * that derive the operator's permissions ({@code kopf4j manifests}, {@code kopf4j check-rbac}).
     *
     * @return the plan; its startup handlers that take the settings have run, the others have not
     * @throws OperatorException with a one-line message for every kind of bad input
     */
    public OperatorPlan plan() {
        checkOptions();
        return new OperatorPlan(HandlerSources.load(handlers, modules), this::settings, choices(), kubeconfig, context);
    }

    /**
     * The handler sources that {@code run --reload} watches and compiles again: only {@code .java}
     * files can be, so a jar, a class name or a module is refused.
     *
     * @return the {@code .java} files, as given
     * @throws OperatorException naming the first handler that is not a {@code .java} file
     */
    public List<Path> reloadableSources() {
        if (!modules.isEmpty()) {
            throw new OperatorException("--reload compiles .java handler sources again; -m " + modules.getFirst()
                    + " names compiled classes: give its .java files instead");
        }
        for (String item : handlers) {
            if (!item.endsWith(".java")) {
                throw new OperatorException("--reload compiles .java handler sources again; " + item + " is "
                        + (item.endsWith(".jar") ? "a jar" : "a class name") + ": give its .java files instead");
            }
        }
        return handlers.stream().map(Path::of).toList();
    }

    /** Checks the options' combinations and values; returns the liveness endpoint, if any. */
    private URI checkOptions() {
        if (handlers.isEmpty() && modules.isEmpty()) {
            throw new OperatorException("no handlers given: name .java files, .jar files or classes, or -m PACKAGE");
        }
        if (allNamespaces && !namespaces.isEmpty()) {
            throw new OperatorException("-A/--all-namespaces and -n/--namespace exclude each other");
        }
        if (standalone && peering != null) {
            throw new OperatorException("--standalone and -P/--peering exclude each other");
        }
        if (!leaderElection && (leaderElectionId != null || leaderElectionNamespace != null)) {
            throw new OperatorException("--leader-election-id and --leader-election-namespace need --leader-election");
        }
        if (metricsCertDir != null && !metricsSecure) {
            throw new OperatorException("--metrics-cert-dir needs --metrics-secure");
        }
        if (dev && priority != null) {
            throw new OperatorException("--dev (priority 666) and -p/--priority exclude each other");
        }
        for (String namespace : namespaces) {
            if (namespace.isBlank()) {
                throw new OperatorException("invalid namespace pattern: an empty -n value");
            }
        }
        URI livenessEndpoint = null;
        if (liveness != null) {
            try {
                livenessEndpoint = new URI(liveness);
            } catch (URISyntaxException e) {
                throw new OperatorException("invalid --liveness '" + liveness + "': " + e.getReason());
            }
            if (!"http".equals(livenessEndpoint.getScheme()) || livenessEndpoint.getPort() < 0) {
                throw new OperatorException("invalid --liveness '" + liveness + "': expected http://HOST:PORT/PATH");
            }
        }
        for (String[] address : new String[][]{{"--health-probe-bind-address", healthProbeAddress},
                {"--metrics-bind-address", metricsAddress}}) {
            if (address[1] != null && !address[1].matches("[^:]*:\\d+")) {
                throw new OperatorException("invalid " + address[0] + " '" + address[1] + "': expected HOST:PORT or :PORT");
            }
        }
        return livenessEndpoint;
    }

    /**
     * Loads and validates the handlers and applies the options; the caller may still point the
     * builder at another cluster (the CLI's --local-cluster, KopfRunner's kubeconfig).
     *
     * @return a builder with the handlers, settings, namespaces and endpoints of the options
     * @throws OperatorException with a one-line message for every kind of bad input
     */
    public Operator.Builder operatorBuilder() {
        URI livenessEndpoint = checkOptions();
        if (metricsSecure && metricsAddress == null) {   // manifests add the address; a run serves none without it
            throw new OperatorException("--metrics-secure needs --metrics-bind-address");
        }
        return Operator.builder()
                .settings(settings(choices()))
                .liveness(livenessEndpoint)
                .healthProbeAddress(healthProbeAddress)
                .metricsAddress(metricsAddress)
                .handlers(HandlerSources.load(handlers, modules).toArray())
                .namespaces(namespaces)
                .kubeconfig(kubeconfig)
                .context(context);
    }
}
