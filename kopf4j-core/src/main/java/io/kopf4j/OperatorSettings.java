package io.kopf4j;

import io.kopf4j.storage.AnnotationPrefixes;
import io.kopf4j.storage.AnnotationsDiffBaseStorage;
import io.kopf4j.storage.DiffBaseStorage;
import io.kopf4j.storage.Finalizers;
import io.kopf4j.storage.MultiProgressStorage;
import io.kopf4j.storage.ProgressStorage;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * An operator's settings, grouped and named as Kopf's {@code kopf.OperatorSettings}, with Kopf's
 * defaults. Each operator has its own.
 *
 * <pre>{@code
 * OperatorSettings settings = new OperatorSettings();
 * settings.persistence.finalizer = "example.com/finalizer";
 * settings.execution.defaultBackoff = Duration.ofSeconds(10);
 * Operator.builder().settings(settings)...
 * }</pre>
 */
public final class OperatorSettings {
    /** Kopf's defaults. */
    public OperatorSettings() {
    }

    /** Where state is kept on the objects. */
    public final Persistence persistence = new Persistence();
    /** How handlers are run. */
    public final Execution execution = new Execution();
    /** Per-object queues. */
    public final Queueing queueing = new Queueing();
    /** Kopf's deprecated name of {@link #queueing}: the same object. */
    @Deprecated
    public final Queueing batching = queueing;
    /** Watch streams. */
    public final Watching watching = new Watching();
    /** Requests to the API server. */
    public final Networking networking = new Networking();
    /** The operator's own lifecycle. */
    public final Process process = new Process();
    /** Health probes. */
    public final Probes probes = new Probes();
    /** Kubernetes Events about the objects. */
    public final Posting posting = new Posting();
    /** Following namespaces and CRDs while running. */
    public final Scanning scanning = new Scanning();
    /** Kopf's peering: several operators on one cluster, only the highest priority handling (docs/peering.md). */
    public final Peering peering = new Peering();
    /** Kopf's daemons and timers: their cancellation and instant exits (docs/daemons.md). */
    public final Background background = new Background();
    /** Kopf's admission webhooks: the server and the managed configurations. */
    public final Admission admission = new Admission();
    /** Leader election with a Lease (kopf4j's own; Kopf has none): off by default. */
    public final Leadership leadership = new Leadership();
    /** Sharding: replicas that split the objects between them (kopf4j's own; see docs/sharding.md). */
    public final Sharding sharding = new Sharding();
    /** The permission check at start-up (kopf4j's own; see docs/deploying.md). */
    public final Preflight preflight = new Preflight();
    /** How {@code /metrics} is served (kopf4j's own; see docs/metrics.md). */
    public final Metrics metrics = new Metrics();
    /** How the children of {@code @Children} handlers are applied (kopf4j's own; see docs/children.md). */
    public final Children children = new Children();
    /** Conversions between versions of custom resources (kopf4j's own; see docs/versions.md). */
    public final Conversions conversion = new Conversions();

    /**
     * Checks every value, as the operator does when it starts (after the startup handlers, which may
     * change them).
     *
     * @throws OperatorException naming the first invalid setting and why, in one line
     */
    public void validate() {
        require("persistence.finalizer", persistence.finalizer != null
                && persistence.finalizer.matches("([a-z0-9]([-a-z0-9.]*[a-z0-9])?/)?[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?"),
                "must be a qualified name such as example.com/finalizer", persistence.finalizer);
        require("persistence.progressStorage", persistence.progressStorage != null, "must be set", null);
        require("children.fieldManager", children.fieldManager != null
                && children.fieldManager.matches("[A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?"),
                "must be a label value (up to 63 letters, digits, '-', '_' or '.'), as the children's label carries it",
                children.fieldManager);
        require("persistence.diffbaseStorage", persistence.diffbaseStorage != null, "must be set", null);
        atLeastZero("persistence.consistencyTimeout", persistence.consistencyTimeout);
        atLeastZero("execution.defaultBackoff", execution.defaultBackoff);
        require("execution.lifecycle", execution.lifecycle != null, "must be set", null);
        atLeastOne("execution.maxWorkers", execution.maxWorkers);
        require("posting.level", posting.level != null, "must be set", null);
        require("posting.reportingComponent", posting.reportingComponent != null && !posting.reportingComponent.isBlank(),
                "must not be empty", posting.reportingComponent);
        require("posting.eventNamePrefix", posting.eventNamePrefix != null, "must be set", null);
        require("posting.queueSize", posting.queueSize >= 1, "must be at least 1", posting.queueSize);
        require("posting.burst", posting.burst >= 1, "must be at least 1", posting.burst);
        positive("posting.refillInterval", posting.refillInterval);
        atLeastZero("posting.repeatInterval", posting.repeatInterval);
        require("posting.similarLimit", posting.similarLimit >= 1, "must be at least 1", posting.similarLimit);
        positive("posting.correlationWindow", posting.correlationWindow);
        atLeastZero("probes.livenessCache", probes.livenessCache);
        positiveOrNull("probes.progressTimeout", probes.progressTimeout);
        atLeastZero("process.shutdownGracePeriod", process.shutdownGracePeriod);
        positiveOrNull("process.ultimateExitingTimeout", process.ultimateExitingTimeout);
        require("networking.errorBackoffs", networking.errorBackoffs != null, "must be set (empty disables retries)", null);
        checkDelays("networking.errorBackoffs", networking.errorBackoffs);
        positive("networking.requestTimeout", networking.requestTimeout);
        positiveOrNull("networking.connectTimeout", networking.connectTimeout);
        require("networking.maxConcurrentRequests", networking.maxConcurrentRequests >= 1, "must be at least 1",
                networking.maxConcurrentRequests);
        positiveOrNull("watching.serverTimeout", watching.serverTimeout);
        positiveOrNull("watching.clientTimeout", watching.clientTimeout);
        positiveOrNull("watching.connectTimeout", watching.connectTimeout);
        atLeastZero("watching.reconnectBackoff", watching.reconnectBackoff);
        positive("watching.inactivityTimeout", watching.inactivityTimeout);
        require("watching.listPageSize", watching.listPageSize >= 1, "must be at least 1", watching.listPageSize);
        atLeastOne("queueing.workerLimit", queueing.workerLimit);
        positive("queueing.idleTimeout", queueing.idleTimeout);
        atLeastZero("queueing.exitTimeout", queueing.exitTimeout);
        require("queueing.errorDelays", queueing.errorDelays != null, "must be set (empty disables throttling)", null);
        checkDelays("queueing.errorDelays", queueing.errorDelays);
        require("peering.name", peering.name != null && !peering.name.isBlank(), "must not be empty", peering.name);
        positive("peering.lifetime", peering.lifetime);
        positive("background.cancellationPolling", background.cancellationPolling);
        if (background.instantExitTimeout != null) {
            atLeastZero("background.instantExitTimeout", background.instantExitTimeout);
        }
        require("background.instantExitZeroTimeCycles", background.instantExitZeroTimeCycles >= 0, "must not be negative",
                background.instantExitZeroTimeCycles);
        validateSharding();
        require("admission.managed", admission.managed == null || !admission.managed.isBlank(), "must not be blank",
                admission.managed);
        require("metrics.certDirectory", metrics.certDirectory == null || metrics.secure, "needs metrics.secure",
                metrics.certDirectory);
        validateLeadership();
    }

    /** client-go's rules for the timings (its {@code NewLeaderElector}), and the Lease's own for its name. */
    private void validateLeadership() {
        require("leadership.leaseName", leadership.leaseName != null && leadership.leaseName.matches(DNS_SUBDOMAIN)
                && leadership.leaseName.length() <= 253, "must be a DNS subdomain name such as example-operator",
                leadership.leaseName);
        require("leadership.leaseNamespace", leadership.leaseNamespace == null
                || leadership.leaseNamespace.matches(DNS_LABEL) && leadership.leaseNamespace.length() <= 63,
                "must be a namespace's name (or null for the operator's own)", leadership.leaseNamespace);
        positive("leadership.leaseDuration", leadership.leaseDuration);
        // The Lease stores whole seconds, and the other candidates read the duration from it.
        require("leadership.leaseDuration", leadership.leaseDuration.toMillis() % 1000 == 0,
                "must be whole seconds", leadership.leaseDuration);
        positive("leadership.renewDeadline", leadership.renewDeadline);
        positive("leadership.retryPeriod", leadership.retryPeriod);
        require("leadership.renewDeadline", leadership.renewDeadline.compareTo(leadership.leaseDuration) < 0,
                "must be shorter than leadership.leaseDuration (" + leadership.leaseDuration + ")", leadership.renewDeadline);
        // client-go's JitterFactor: a retry within the deadline, however the attempts are jittered.
        require("leadership.retryPeriod",
                leadership.retryPeriod.multipliedBy(12).dividedBy(10).compareTo(leadership.renewDeadline) < 0,
                "times 1.2 must be shorter than leadership.renewDeadline (" + leadership.renewDeadline + ")",
                leadership.retryPeriod);
    }

    private static final String DNS_LABEL = "[a-z0-9]([-a-z0-9]*[a-z0-9])?";
    private static final String DNS_SUBDOMAIN = DNS_LABEL + "(\\." + DNS_LABEL + ")*";

    private static void require(String setting, boolean valid, String rule, Object value) {
        if (!valid) {
            throw new OperatorException("invalid setting settings." + setting + ": " + rule
                    + (value == null ? "" : ", got " + value));
        }
    }

    private static void atLeastZero(String setting, Duration value) {
        require(setting, value != null, "must be set", null);
        require(setting, !value.isNegative(), "must not be negative", value);
    }

    private static void positive(String setting, Duration value) {
        require(setting, value != null, "must be set", null);
        require(setting, value.isPositive(), "must be positive", value);
    }

    private static void positiveOrNull(String setting, Duration value) {
        require(setting, value == null || value.isPositive(), "must be positive (or null for none)", value);
    }

    private static void atLeastOne(String setting, Integer value) {
        require(setting, value == null || value >= 1, "must be at least 1 (or null for no limit)", value);
    }

    /** Checks the first delays only: the sequence may be infinite. */
    private static void checkDelays(String setting, Iterable<Duration> delays) {
        int checked = 0;
        for (Duration delay : delays) {
            require(setting, delay != null && !delay.isNegative(), "must contain no null or negative delays", delay);
            if (++checked >= 100) {
                return;
            }
        }
    }

    /**
     * The permission preflight (kopf4j's own; Kopf has none): before watching, the operator asks the
     * API server for every permission it is about to need (its resources' verbs, Events, Leases,
     * peering, webhook configurations), and stops with one error naming each missing one and the
     * rule to add; a missing permission it can live without (posting Events) is a warning.
     *
     * <pre>{@code
     * settings.preflight.enabled = false;   // as --no-preflight: find out at the first 403 instead
     * }</pre>
     */
    public static final class Preflight {
        /** On. */
        public Preflight() {
        }

        /** Check the permissions before watching ({@code --no-preflight} turns it off). */
        public boolean enabled = true;
    }

    /**
     * How {@code /metrics} is served, where a metrics address is given: plain HTTP to anyone, or, as
     * controller-runtime and kubebuilder v4 serve it, HTTPS to scrapers whose bearer token the API
     * server authenticates (TokenReview) and whose user it allows to {@code get} {@code /metrics}
     * (SubjectAccessReview). See docs/metrics.md.
     *
     * <pre>{@code
     * settings.metrics.secure = true;                                   // --metrics-secure
     * settings.metrics.certDirectory = Path.of("/tmp/k8s-metrics-server/serving-certs");   // --metrics-cert-dir
     * }</pre>
     */
    public static final class Metrics {
        /** Plain HTTP, to anyone. */
        public Metrics() {
        }

        /** HTTPS, with authentication and authorisation of the scraper ({@code --metrics-secure}). */
        public boolean secure = false;
        /**
         * With {@link #secure}: a directory with {@code tls.crt} and {@code tls.key} (a mounted Secret, as
         * cert-manager writes it), re-read when they change ({@code --metrics-cert-dir}); null: a
         * self-signed certificate made at start (scrapers then skip its verification, as kubebuilder's
         * ServiceMonitor does by default).
         */
        public java.nio.file.Path certDirectory = null;
    }

    /**
     * How the children of {@code @Children} handlers are applied: the field manager of their
     * server-side applies, which their label {@code kopf4j.dev/managed-by} carries too (their watch
     * is narrowed to it). Two operators that apply children of the same objects need two.
     *
     * <pre>{@code
     * settings.children.fieldManager = "shop-operator";
     * }</pre>
     */
    public static final class Children {
        /** The field manager {@code kopf4j}. */
        public Children() {
        }

        /** The field manager of the applies and the value of the children's {@code kopf4j.dev/managed-by} label. */
        public String fieldManager = "kopf4j";
    }

    /**
     * The conversion webhook of {@link On.Convert} methods, served by {@code settings.admission.server}.
     *
     * <pre>{@code
     * settings.conversion.managed = false;   // the CRDs' spec.conversion comes with them (kopf4j crd --conversion-service)
     * }</pre>
     */
    public static final class Conversions {
        /** Managed. */
        public Conversions() {
        }

        /**
         * Keep the converted kinds' CRDs' {@code spec.conversion} pointing at the webhook server (a
         * merge patch at the start and whenever the server's address or certificate changes);
         * false: set in the CRDs by hand or by GitOps.
         */
        public boolean managed = true;
    }

    /** Where state is kept on the objects. */
    public static final class Persistence {
        /** Kopf's defaults. */
        public Persistence() {
        }

        /** The finalizer that holds objects until their delete handlers ran. */
        public String finalizer = Finalizers.DEFAULT;
        /** Handlers' progress: Kopf's default is annotations, plus status.kopf.progress read-only. */
        public ProgressStorage progressStorage = MultiProgressStorage.smart(AnnotationPrefixes.KOPF_PREFIX);
        /** The last handled state: Kopf's {@code last-handled-configuration} annotation. */
        public DiffBaseStorage diffbaseStorage = new AnnotationsDiffBaseStorage(AnnotationPrefixes.KOPF_PREFIX);
        /** How long to wait for the watch to deliver our own PATCH before assuming it; zero disables waiting. */
        public Duration consistencyTimeout = Duration.ofSeconds(5);
    }

    /** How handlers are run. */
    public static final class Execution {
        /** Kopf's defaults. */
        public Execution() {
        }

        /** The delay before retrying a handler after an arbitrary exception, unless the handler sets one. */
        public Duration defaultBackoff = Duration.ofSeconds(60);
        /** Which pending handlers run per handling cycle: Kopf's {@code asap} by default. */
        public Lifecycle lifecycle = Lifecycles.asap();
        /**
         * How many sync handlers may run at once in this operator; null: no limit (each runs on its
         * own virtual thread). Kopf's executor size; set it to protect what the handlers call.
         */
        public Integer maxWorkers = null;
    }

    /** Kubernetes Events about the objects. */
    public static final class Posting {
        /** Kopf's defaults. */
        public Posting() {
        }

        /** Post events at all: the object loggers' messages and explicit ones ({@link io.kopf4j.Events}). */
        public boolean enabled = true;
        /**
         * Post the object loggers' messages as events too (reason {@code Logging}), as Kopf's
         * documentation describes it ("Also a K8s event"); Kopf's newest default is off. Explicit
         * events are posted regardless. Event handlers' loggers never post, as in Kopf.
         */
        public boolean loggers = true;
        /**
         * The lowest level of object log messages posted as events; also of explicit events posted
         * with {@code info} (INFO), {@code warn} (WARN) and {@code exception} (ERROR), as Kopf's
         * {@code kopf.info/warn/exception}. Explicit events with their own type ({@code event}) are
         * always posted.
         */
        public org.slf4j.event.Level level = org.slf4j.event.Level.INFO;
        /** The events' {@code reportingComponent} and {@code source.component}. */
        public String reportingComponent = "kopf";
        /** The events' {@code reportingInstance}. */
        public String reportingInstance = "dev";
        /** The events' {@code metadata.generateName}. */
        public String eventNamePrefix = "kopf-event-";
        /**
         * The most Events kept track of (kopf4j's own, as client-go's event recorder; Kopf posts every
         * event): those with occurrences waiting to be written, and those written within
         * {@link #correlationWindow} (to count their repeats), each with its object's write budget and
         * its similar events. Beyond it, a new Event is dropped, with a warning a minute that counts
         * the drops; raise it for more objects than this that log repeatedly (1,000 timers need 1,000).
         */
        public int queueSize = 10_000;
        /** Writes (new Events and new counts) that each object may make at once, per event type: client-go's 25. */
        public int burst = 25;
        /** Past {@link #burst}, one more write per object and event type per this long: client-go's 5 minutes. */
        public Duration refillInterval = Duration.ofMinutes(5);
        /**
         * An Event that occurs again (the same object, type, reason and message) is counted into the
         * posted Event ({@code count}, {@code lastTimestamp}): at most one such write per Event per this long.
         * A timer logging every second costs one write a minute; zero writes each repeat as soon as
         * {@link #burst} allows, as client-go.
         */
        public Duration repeatInterval = Duration.ofSeconds(60);
        /**
         * Events of one object, type and reason with this many different messages within
         * {@link #correlationWindow} are combined: from the {@code similarLimit}-th different message
         * on, they all go to one Event, {@code (combined from similar events): <latest message>}, as
         * client-go's 10.
         */
        public int similarLimit = 10;
        /**
         * Events are correlated with earlier ones that occurred within this long before them (counted
         * into an identical one, combined with similar ones); after a quiet spell as long, the next
         * starts a new Event: client-go's 10 minutes.
         */
        public Duration correlationWindow = Duration.ofMinutes(10);
    }

    /** Health probes. */
    public static final class Probes {
        /** Kopf's defaults. */
        public Probes() {
        }

        /** How long the results of {@code @On.Probe} handlers are reused: Kopf's 10 seconds. */
        public Duration livenessCache = Duration.ofSeconds(10);
        /**
         * With a value, {@code /healthz} also fails ({@code progress}) when events have waited this
         * long without any being processed; off by default, as Kopf.
         */
        public Duration progressTimeout = null;
    }

    /** The operator's own lifecycle. */
    public static final class Process {
        /** Kopf's defaults. */
        public Process() {
        }

        /**
         * At shutdown, how long handlers in flight may take to finish; then they are interrupted,
         * and those that ignore it are abandoned after one more second.
         */
        public Duration shutdownGracePeriod = Duration.ofSeconds(5);
        /**
         * After SIGINT or SIGTERM, the process exits (code 3) if it has not ended by itself within
         * this time, e.g. because a cleanup handler hangs; null: wait forever. Not applied to
         * {@code Operator.stop()} in an embedding application.
         */
        public Duration ultimateExitingTimeout = Duration.ofSeconds(600);
    }

    /** Following namespaces and CRDs while running. */
    public static final class Scanning {
        /** Kopf's defaults. */
        public Scanning() {
        }

        /**
         * Do not watch namespaces and CRDs: namespace patterns serve only their exact names, and the
         * resources are resolved once at the start. For operators without the RBAC to list them.
         */
        public boolean disabled = false;
    }

    /**
     * Kopf's peering of several operators on one cluster (docs/peering.md): each keeps its record in
     * a {@code KopfPeering} or {@code ClusterKopfPeering} object; an operator pauses while a peer of
     * a higher (or the same) priority is alive. Set by {@code --peering}, {@code --priority},
     * {@code --dev} and {@code --standalone}, or in a startup handler:
     *
     * <pre>{@code
     * settings.peering.priority = 100;
     * settings.peering.lifetime = Duration.ofSeconds(30);
     * }</pre>
     */
    public static final class Peering {
        /** Kopf's defaults. */
        public Peering() {
        }

        /** The KopfPeering or ClusterKopfPeering object's name; without {@code mandatory}, used only if it exists. */
        public String name = "default";
        /** Operators of a lower priority pause while one of a higher priority runs; {@code --dev} gives 666. */
        public int priority = 0;
        /** How long an operator's keep-alive stays valid (whole seconds on the object); it is renewed 5-10 s before. */
        public Duration lifetime = Duration.ofSeconds(60);
        /** Pause while the peering CRD or object is missing ({@code --peering}). */
        public boolean mandatory = false;
        /** No peering at all ({@code --standalone}). */
        public boolean standalone = false;
        /** ClusterKopfPeering (true) or KopfPeering per namespace (false); null: from {@code -A}/{@code -n}. */
        public Boolean clusterwide = null;
        /** Do not log the keep-alives. */
        public boolean stealth = false;
    }

    /** Daemons and timers: how their stops are reported and how long a stopped one gets to exit at once (see docs/daemons.md). */
    public static final class Background {
        /** Kopf's defaults. */
        public Background() {
        }

        /** How often a daemon that has not exited after its cancellation is checked again. */
        public Duration cancellationPolling = Duration.ofSeconds(60);
        /** An optional wait for a daemon's instant exit; null: none. */
        public Duration instantExitTimeout = null;
        /** Zero-time cycles given to a daemon to exit instantly. */
        public int instantExitZeroTimeCycles = 10;
    }

    private void validateSharding() {
        if (sharding.shards == null) {
            return;
        }
        require("sharding.shards", sharding.shards >= 0, "must be Sharding.AUTO (0) or a count of slots", sharding.shards);
        positive("sharding.leaseDuration", sharding.leaseDuration);
        positive("sharding.renewPeriod", sharding.renewPeriod);
        require("sharding.leaseDuration", sharding.leaseDuration.toSeconds() >= 1, "must be at least 1 s (Leases count in seconds)",
                sharding.leaseDuration);
        require("sharding.renewPeriod", sharding.renewPeriod.multipliedBy(2).compareTo(sharding.leaseDuration) <= 0,
                "must be at most half of sharding.leaseDuration", sharding.renewPeriod);
        require("sharding.identity", sharding.identity == null || !sharding.identity.isBlank(), "must not be blank",
                sharding.identity);
        for (String[] name : new String[][]{{"sharding.group", sharding.group}, {"sharding.namespace", sharding.namespace}}) {
            require(name[0], name[1] == null || name[1].matches("[a-z0-9]([-a-z0-9.]*[a-z0-9])?"),
                    "must be a lowercase DNS name (or null for the default)", name[1]);
        }
    }

    /**
     * Sharding: several replicas of the operator split the watched objects between them, each
     * holding a Lease of the group (see docs/sharding.md). Off unless {@link #shards} is set
     * ({@code --shards auto|N}).
     *
     * <pre>{@code
     * settings.sharding.shards = OperatorSettings.Sharding.AUTO;
     * settings.sharding.leaseDuration = Duration.ofSeconds(15);
     * }</pre>
     */
    public static final class Sharding {
        /** {@link #shards}: split the objects between the live replicas. */
        public static final int AUTO = 0;

        /** Off by default; leader election's timings. */
        public Sharding() {
        }

        /** Null: off (every object handled here); {@link #AUTO}; or a fixed count of slots, one per replica, spares standing by. */
        public Integer shards = null;
        /** The shard group: replicas of one group split the objects. Null: derived from the finalizer and the handlers' resources. */
        public String group = null;
        /**
         * Where the Leases are ({@code --shard-namespace}); null: as for leader election's Lease, the
         * pod's own namespace in a cluster ({@code POD_NAMESPACE}, else the service account's), else
         * the one namespace served ({@code -n NAME}), else {@code default}.
         */
        public String namespace = null;
        /** This replica's name in the group. Null: the host name (the pod's name) and a random suffix. */
        public String identity = null;
        /** How long a member's Lease lasts without renewal: a replica that dies is replaced after this. */
        public Duration leaseDuration = Duration.ofSeconds(15);
        /** How often a member renews its Lease and reads the others' (four times as often during a hand-over). */
        public Duration renewPeriod = Duration.ofSeconds(2);
    }

    /** Kopf's admission webhooks: where requests arrive, and whether kopf4j manages the configurations. */
    public static final class Admission {
        /** Kopf's defaults. */
        public Admission() {
        }

        /**
         * The server or tunnel that receives admission requests ({@code WebhookServer},
         * {@code WebhookAutoServer}, ...); required when validating or mutating handlers exist.
         */
        public WebhookServing server = null;

        /**
         * The name of the ValidatingWebhookConfiguration and MutatingWebhookConfiguration that
         * kopf4j creates and keeps up to date; null: configured by hand
         * ({@code kopf4j webhook-configuration} prints them).
         */
        public String managed = null;
    }

    /**
     * Leader election (kopf4j's own; Kopf has none): of the replicas with the same Lease, one
     * handles and the others stand by, paused, until it goes. The timings are controller-runtime's
     * defaults. See docs/leader-election.md.
     *
     * <pre>{@code
     * settings.leadership.enabled = true;
     * settings.leadership.leaseName = "example-operator";
     * }</pre>
     */
    public static final class Leadership {
        /** controller-runtime's defaults; off. */
        public Leadership() {
        }

        /** Elect a leader ({@code --leader-election}); off: every replica handles. */
        public boolean enabled = false;
        /**
         * The Lease's name ({@code --leader-election-id}): replicas with the same name and namespace
         * elect one leader. Different operators in one namespace need different names.
         */
        public String leaseName = "kopf4j-leader";
        /**
         * The Lease's namespace ({@code --leader-election-namespace}); null: the pod's own namespace
         * in a cluster ({@code POD_NAMESPACE}, else the service account's), else the one namespace
         * served ({@code -n NAME}), else {@code default}.
         */
        public String leaseNamespace = null;
        /** How long standbys wait after the leader's last renewal before they take over (whole seconds). */
        public Duration leaseDuration = Duration.ofSeconds(15);
        /** How long the leader goes on retrying a failed renewal before it pauses, shorter than the lease. */
        public Duration renewDeadline = Duration.ofSeconds(10);
        /** How often the candidates try to acquire, and the leader to renew (with up to 1.2 times more jitter). */
        public Duration retryPeriod = Duration.ofSeconds(2);
    }

    /** Requests to the API server. */
    public static final class Networking {
        /** Kopf's defaults. */
        public Networking() {
        }

        /**
         * Waits between retries of a failed API request (connection errors, timeouts, HTTP 5xx, 403
         * and 429); other errors fail at once. Any re-iterable sequence, infinite ones included; an
         * empty one disables retrying. Kopf's default: about a minute of attempts.
         */
        public Iterable<Duration> errorBackoffs = List.of(1, 1, 2, 3, 5, 8, 13, 21).stream().map(Duration::ofSeconds).toList();
        /** Wait exactly as long as a 429's Retry-After says (by default: the longer of it and the own backoff). */
        public boolean enforceRetryAfter = false;
        /** Total time for one request (not for watches). */
        public Duration requestTimeout = Duration.ofSeconds(300);
        /** Time to establish a connection; null: 10 seconds. */
        public Duration connectTimeout = null;
        /**
         * Take proxies from {@code HTTPS_PROXY}, {@code HTTP_PROXY} and {@code NO_PROXY} (a login's
         * {@code proxyUrl} wins). Off by default, as in Kopf: an operator does not pick up a
         * developer's proxy by accident.
         */
        public boolean trustEnv = false;

        /**
         * How many requests that change objects may be in flight at once; more wait their turn. A
         * burst of thousands of objects then queues in the operator instead of failing.
         */
        public int maxConcurrentRequests = 64;
    }

    /** Watch streams. */
    public static final class Watching {
        /** Kopf's defaults. */
        public Watching() {
        }

        /** How long the server keeps a watch open before closing it gracefully ({@code timeoutSeconds}); null: the server's choice. */
        public Duration serverTimeout = null;
        /** How long a watch may last before the operator closes and resumes it; null: forever. */
        public Duration clientTimeout = null;
        /** The TCP connect timeout of watches; null: {@code networking.connectTimeout}, then {@code networking.requestTimeout}. */
        public Duration connectTimeout = null;
        /** The pause between watch requests, so that errors and disconnects do not flood the API server. */
        public Duration reconnectBackoff = Duration.ofMillis(100);
        /**
         * Reconnect a watch stream that delivered nothing, not even a bookmark, for this long: the
         * fix for streams that silently stop behind load balancers.
         */
        public Duration inactivityTimeout = Duration.ofSeconds(70);
        /** Objects per page of the initial listing (and re-listings): large collections come in pages. */
        public int listPageSize = 500;

        /**
         * Server-side label selectors by resource (kopf4j's own; Kopf lists and watches every object):
         * the API server sends the operator only the objects with these labels, so that an operator
         * of a few objects in a big cluster holds and processes only those. The key names a resource
         * as handlers name it ({@code pods}, {@code kopfexamples.kopf.dev}); the value is a selector
         * as {@code kubectl -l} takes it. Objects outside are outside the operator: no handler of
         * that resource serves them, whatever its own filters say, and one that leaves the selection
         * is treated as one that no handler's filters match any more (its daemons stop, its
         * finalizer goes). docs/big-clusters.md says when to use it and what it changes.
         *
         * <pre>{@code
         * settings.watching.labelSelectors.put("pods", "app.kubernetes.io/managed-by=my-operator");
         * }</pre>
         */
        public final Map<String, String> labelSelectors = new LinkedHashMap<>();

        /**
         * Server-side field selectors by resource, as {@link #labelSelectors} (both must hold where
         * both are given): {@code path=value}, {@code path!=value}. Custom resources can be selected
         * by {@code metadata.name} and {@code metadata.namespace} only; built-in ones by the fields
         * their API allows ({@code spec.nodeName} of Pods).
         *
         * <pre>{@code
         * settings.watching.fieldSelectors.put("pods", "spec.nodeName=" + System.getenv("NODE_NAME"));
         * }</pre>
         */
        public final Map<String, String> fieldSelectors = new LinkedHashMap<>();

        /**
         * With a selection, and handlers that put the operator's finalizer on its objects: once after
         * the first listing, list the whole resource (page by page, metadata only where the selection
         * is on metadata; nothing kept) for objects that left the selection while no operator
         * watched and still hold the finalizer, and release them. Off: such an object keeps the
         * finalizer (and its deletion hangs) until it is relabelled back or the finalizer is removed
         * by hand; for a resource so big that one listing at the start costs too much.
         */
        public boolean sweepAtStart = true;

        /**
         * Keep {@code metadata.managedFields} in the bodies that handlers get (kopf4j's own; Kopf
         * keeps them). Off by default: the API server's bookkeeping of server-side apply, which
         * handlers rarely read, is often the largest part of an object's metadata, and every queued
         * event and every body kept for daemons costs less without it. Turn it on for a handler that
         * reads them.
         */
        public boolean keepManagedFields = false;
    }

    /** Per-object queues. */
    public static final class Queueing {
        /** Kopf's defaults. */
        public Queueing() {
        }

        /**
         * How many objects of one resource in one namespace (or cluster-wide) are handled at once;
         * null: no limit. Others wait their turn; an object waiting for a delayed handler does not
         * hold a place.
         */
        public Integer workerLimit = null;
        /** A per-object worker exits after this long without events. */
        public Duration idleTimeout = Duration.ofSeconds(5);
        /**
         * When a watcher stops while the operator runs on (its namespace or CRD is gone), how long
         * its objects' handlers in flight may take before they are interrupted. (At the operator's
         * exit, {@code process.shutdownGracePeriod} applies.)
         */
        public Duration exitTimeout = Duration.ofSeconds(2);
        /** Delays after unexpected errors in an object's processing; the last one repeats. */
        public List<Duration> errorDelays = List.of(1, 1, 2, 3, 5, 8, 13, 21, 34, 55, 89, 144, 233, 377, 610)
                .stream().map(Duration::ofSeconds).toList();
    }
}
