package io.kopf4j.envtest;

import java.util.List;

/**
 * Whether this kit reaches the internals of kopf4j-core that it uses. kopf4j-core exports them
 * only to kopf4j's own modules, which a qualified export reaches only as named modules. A modular
 * project's tests put {@code io.kopf4j} on the module path and the test kit on the classpath, as
 * the unnamed module: the first use of an internal would fail with an {@code IllegalAccessError}
 * deep in a start. This says which setting to change, once, before anything starts.
 */
final class CoreAccess {
    /** The packages of kopf4j-core that kopf4j-envtest (and kopf4j-testing beside it) use. */
    private static final List<String> USED = List.of("io.kopf4j.internal.engines.permissions", "io.kopf4j.internal.pki");

    private CoreAccess() {
    }

    /**
     * Checks that the kit reaches kopf4j-core's internals.
     *
     * @param core kopf4j-core's module
     * @param kit the test kit's module
     * @throws IllegalStateException naming the Surefire setting that runs the tests on the classpath
     */
    static void require(Module core, Module kit) {
        for (String used : USED) {
            if (!core.isExported(used, kit)) {
                throw new IllegalStateException("kopf4j's test kit (" + describe(kit) + ") cannot reach " + used + " of "
                        + describe(core) + ": a modular project's tests run io.kopf4j on the module path and the test kit"
                        + " on the classpath, where kopf4j-core does not export its internals. Run the tests on the"
                        + " classpath: Surefire's <useModulePath>false</useModulePath> (docs/embedding.md).");
            }
        }
    }

    private static String describe(Module module) {
        return module.isNamed() ? "module " + module.getName() : "the classpath";
    }
}
