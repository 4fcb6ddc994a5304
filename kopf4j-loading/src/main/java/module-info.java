/**
 * What the kopf4j command (io.kopf4j.cli) and kopf4j-testing's {@code KopfRunner} share, and no
 * more of the command: the run options, the handler sources compiled in memory, the class cache,
 * and the operator's plan ({@code io.kopf4j.internal.loading}). Not an API: exported to those two
 * modules only, so that a user's tests get neither the command nor its CRD generator.
 */
// "module": the qualified exports name kopf4j's modules built after this one.
@SuppressWarnings({"requires-automatic", "requires-transitive-automatic", "module"})
module io.kopf4j.loading {
    exports io.kopf4j.internal.loading to io.kopf4j.cli, io.kopf4j.testing;
    // picocli sets the @Option fields of the run options' mixins by reflection.
    opens io.kopf4j.internal.loading to info.picocli;

    requires transitive io.kopf4j;
    requires info.picocli;
    requires kubernetes.model.core;
    requires com.fasterxml.jackson.core;
    requires com.fasterxml.jackson.databind;
    requires com.fasterxml.jackson.dataformat.yaml;
    requires java.compiler;   // SourceCompiler: handler .java files compiled in memory
}
