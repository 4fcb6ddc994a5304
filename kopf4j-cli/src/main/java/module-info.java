/**
 * The kopf4j command ({@link io.kopf4j.cli.Main}); what it shares with kopf4j-testing's
 * {@code KopfRunner} (the run options, the loading of handlers) is kopf4j-loading's.
 * The command itself runs with {@code -cp}, as one unnamed module; this descriptor states what it
 * needs, checked at every build.
 */
@SuppressWarnings({"requires-automatic", "requires-transitive-automatic"})
module io.kopf4j.cli {
    exports io.kopf4j.cli;
    // picocli sets the @Option fields of the commands by reflection.
    opens io.kopf4j.cli to info.picocli;

    // Kopf's console format until the options are read, unless the user has a logback.xml.
    provides ch.qos.logback.classic.spi.Configurator with io.kopf4j.cli.ConsoleLogging;

    requires transitive io.kopf4j;
    requires io.kopf4j.loading;   // the run options, the handler sources, the operator's plan
    requires io.kopf4j.envtest;   // run --local-cluster, kopf4j cluster, kopf4j envtest
    requires info.picocli;
    requires kubernetes.model.core;
    requires kubernetes.model.common;   // @Group and @Version of typed custom resources
    requires kubernetes.model.apiextensions;
    requires kubernetes.model.admissionregistration;   // TokenRequest: kopf4j kubeconfig
    requires crd.generator.api.v2;   // kopf4j crd
    requires com.fasterxml.jackson.core;
    requires com.fasterxml.jackson.databind;
    requires com.fasterxml.jackson.dataformat.yaml;
    requires ch.qos.logback.classic;
    requires ch.qos.logback.core;
    requires java.compiler;   // ProjectNames: SourceVersion, for the names kopf4j init accepts
    requires jdk.unsupported;   // Signals: sun.misc.Signal, for Kopf's messages on SIGINT and SIGTERM
}
