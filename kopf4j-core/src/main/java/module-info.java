/**
 * kopf4j: Kubernetes operators as a few annotated methods. The public API is {@link io.kopf4j},
 * the storages of {@link io.kopf4j.storage}, and the toolkits of {@link io.kopf4j.kits} and
 * {@link io.kopf4j.kits.webhooks}. The engine's packages (clients, intents, actions,
 * reactor, engines, structs) are not exported but to kopf4j's own modules: its command
 * (io.kopf4j.cli), local control plane (io.kopf4j.envtest) and test kit (io.kopf4j.testing).
 *
 * <p>Handlers are found and invoked by reflection: a handler class in a named module needs its
 * package opened to this module ({@code opens com.example.operator to io.kopf4j;}); see
 * docs/embedding.md.
 */
@SuppressWarnings({"requires-automatic", "requires-transitive-automatic"})
module io.kopf4j {
    exports io.kopf4j;
    exports io.kopf4j.storage;
    // The toolkits, Kopf's kopf/_kits: the hierarchies of objects, the admission webhook servers and tunnels.
    exports io.kopf4j.kits;
    exports io.kopf4j.kits.webhooks;

    // Internal, not API (they may change without notice), and exported only to kopf4j's own modules:
    // kopf4j-cli loads handlers and plans the operator (intents, engines, clients, structs), sets up
    // logging (logging), checks RBAC (engines.permissions) and reports running out of memory
    // (runtime); kopf4j-envtest makes the local cluster's certificates (kits.pki) and waits for its
    // APIs (engines.permissions); kopf4j-testing sets up logging and tags log lines with the
    // operator's MDC key (logging, runtime). On the classpath (the kopf4j command runs with -cp) all
    // are one unnamed module, where exports do not matter.
    exports io.kopf4j.logging to io.kopf4j.cli, io.kopf4j.testing;
    exports io.kopf4j.runtime to io.kopf4j.cli, io.kopf4j.testing;
    exports io.kopf4j.engines.permissions to io.kopf4j.cli, io.kopf4j.envtest;
    exports io.kopf4j.kits.pki to io.kopf4j.envtest;
    exports io.kopf4j.intents to io.kopf4j.cli;
    exports io.kopf4j.engines.activities to io.kopf4j.cli;
    exports io.kopf4j.engines.admission to io.kopf4j.cli;
    exports io.kopf4j.engines.peering to io.kopf4j.cli;
    exports io.kopf4j.clients to io.kopf4j.cli;
    exports io.kopf4j.structs to io.kopf4j.cli;

    // In the public API's signatures: handlers' loggers, the operator's client and meter registry.
    requires transitive org.slf4j;
    requires transitive kubernetes.client.api;
    requires transitive micrometer.core;

    requires kubernetes.model.core;
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
