/**
 * kopf4j: Kubernetes operators as a few annotated methods. The public API is {@link io.kopf4j},
 * the storages of {@link io.kopf4j.storage}, the toolkits of {@link io.kopf4j.kits} and
 * {@link io.kopf4j.kits.webhooks}, and kopf4j's logger column for Logback ({@link io.kopf4j.logback}). Everything under {@code io.kopf4j.internal} is not API (it
 * may change without notice): exported only to kopf4j's command (io.kopf4j.cli), local control
 * plane (io.kopf4j.envtest) and test kit (io.kopf4j.testing), each package to those that use it.
 *
 * <p>Handlers are found and invoked by reflection: a handler class in a named module needs its
 * package opened to this module ({@code opens com.example.operator to io.kopf4j;}); see
 * docs/embedding.md.
 */
// "module": the qualified exports name kopf4j's other modules, which are built after this one.
@SuppressWarnings({"requires-automatic", "requires-transitive-automatic", "module"})
module io.kopf4j {
    exports io.kopf4j;
    exports io.kopf4j.storage;
    // The toolkits, Kopf's kopf/_kits: the hierarchies of objects, the admission webhook servers and tunnels.
    exports io.kopf4j.kits;
    exports io.kopf4j.kits.webhooks;
    // kopf4j's logger column for an application's own logback.xml (Logback instantiates the converter by its name).
    exports io.kopf4j.logback;

    // Internal, not API (they may change without notice), and exported only to kopf4j's modules that
    // use them: kopf4j-envtest makes the local cluster's certificates (pki) and waits for its APIs
    // (engines.permissions); kopf4j-testing checks conversions and kopf4j-loading and kopf4j-cli print them (engines.conversion), sets up logging and tags log lines with the operator's MDC
    // key (logging, runtime); kopf4j-loading, shared by the command and kopf4j-testing, finds handler
    // classes and plans and starts the operator (intents, engines.*, clients, structs); kopf4j-cli
    // derives RBAC (engines.permissions) and sets up logging.
    //
    // A qualified export reaches those modules only as named modules. On the classpath alone (the
    // kopf4j command runs with -cp, and so do kopf4j's tests but core's) exports do not matter. A modular
    // project's tests, though, run with io.kopf4j on the module path and kopf4j-testing, kopf4j-cli
    // and kopf4j-envtest on the classpath (Surefire puts there the test-scoped jars that the project's
    // module does not require), as the unnamed module: there LocalCluster.start() and KopfRunner fail
    // with IllegalAccessError. Such a project runs its tests on the classpath (Surefire's
    // <useModulePath>false</useModulePath>; docs/embedding.md) rather than have kopf4j export its
    // engine to everyone.
    exports io.kopf4j.internal.logging to io.kopf4j.loading, io.kopf4j.cli, io.kopf4j.testing;
    exports io.kopf4j.internal.runtime to io.kopf4j.loading, io.kopf4j.cli, io.kopf4j.testing;
    exports io.kopf4j.internal.engines.permissions to io.kopf4j.loading, io.kopf4j.cli, io.kopf4j.envtest;
    exports io.kopf4j.internal.pki to io.kopf4j.envtest;
    exports io.kopf4j.internal.structs to io.kopf4j.loading, io.kopf4j.cli;
    exports io.kopf4j.internal.intents to io.kopf4j.loading;
    exports io.kopf4j.internal.engines.activities to io.kopf4j.loading;
    exports io.kopf4j.internal.engines.admission to io.kopf4j.loading;
    exports io.kopf4j.internal.engines.conversion to io.kopf4j.testing, io.kopf4j.loading, io.kopf4j.cli;
    exports io.kopf4j.internal.engines.peering to io.kopf4j.loading;
    exports io.kopf4j.internal.clients to io.kopf4j.loading;

    // In the public API's signatures: handlers' loggers, the operator's client and meter registry.
    requires transitive org.slf4j;
    requires transitive kubernetes.client.api;
    requires transitive micrometer.core;

    requires kubernetes.model.core;
    requires kubernetes.model.common;   // @Group and @Version of the conversions' classes
    requires kubernetes.model.apiextensions;   // kits.StorageMigration reads and writes CRDs
    requires kubernetes.model.coordination;   // sharding's Leases
    requires io.fabric8.kubernetes.client.jdkhttp;   // VirtualThreadHttpClientFactory
    requires zjsonpatch;
    requires com.fasterxml.jackson.core;
    requires com.fasterxml.jackson.databind;
    requires micrometer.registry.prometheus;
    requires org.bouncycastle.provider;
    requires org.bouncycastle.pkix;   // the webhook servers' certificates
    // Not used by kopf4j itself: modules that fabric8 needs at run time (kubeconfig YAML, its object
    // mapper's modules). fabric8's jars are automatic modules, which declare no requires, and these
    // are explicit modules, which the module system resolves only when some named module requires them.
    requires org.snakeyaml.engine;
    requires com.fasterxml.jackson.dataformat.yaml;
    requires com.fasterxml.jackson.datatype.jsr310;
    // Optional, as in the pom: LogSetup applies Kopf's formats only when Logback is the SLF4J backend.
    requires static ch.qos.logback.classic;
    requires static ch.qos.logback.core;

    requires java.net.http;   // the JDK HTTP client's timeouts, retried as Kopf retries them
    requires jdk.httpserver;  // the liveness, /healthz, /readyz and /metrics endpoints; the webhook servers
}
