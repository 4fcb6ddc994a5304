/**
 * kopf4j: Kubernetes operators as a few annotated methods. The public API is {@link io.kopf4j},
 * the storages of {@link io.kopf4j.storage}, and the toolkits of {@link io.kopf4j.kits} and
 * {@link io.kopf4j.kits.webhooks}. The engine's packages (clients, intents, actions,
 * reactor, engines, structs) are not exported; three internal packages are, for kopf4j's command
 * and test kit only (see below).
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

    // Internal, not API (they may change without notice), yet exported to everyone: kopf4j-cli and
    // kopf4j-testing parse the run options and load handlers (loading), set up logging (logging),
    // tag log lines with the operator's MDC key (runtime) and make certificates (kits.pki). A
    // qualified export would reach them only as named modules, and they are often unnamed: the
    // kopf4j command runs with -cp, and Surefire puts a modular project's test-scoped jars
    // (kopf4j-testing) on the classpath beside io.kopf4j.
    exports io.kopf4j.loading;
    exports io.kopf4j.engines.permissions;
    exports io.kopf4j.logging;
    exports io.kopf4j.runtime;
    exports io.kopf4j.kits.pki;
    // picocli sets the @Option fields of RunOptions by reflection.
    opens io.kopf4j.loading to info.picocli;

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
    requires info.picocli;
    // Not used by kopf4j itself: modules that fabric8 needs at run time (kubeconfig YAML, its object
    // mapper's modules). fabric8's jars are automatic modules, which declare no requires, and these
    // are explicit modules, which the module system resolves only when some named module requires them.
    requires org.snakeyaml.engine;
    requires com.fasterxml.jackson.dataformat.yaml;
    requires com.fasterxml.jackson.datatype.jsr310;
    // Optional, as in the pom: LogSetup applies Kopf's formats only when Logback is the SLF4J backend.
    requires static ch.qos.logback.classic;
    requires static ch.qos.logback.core;

    requires java.compiler;   // SourceCompiler: handler .java files compiled in memory
    requires java.net.http;   // the JDK HTTP client's timeouts, retried as Kopf retries them
    requires jdk.httpserver;  // the liveness, /healthz, /readyz and /metrics endpoints; the webhook servers
}
