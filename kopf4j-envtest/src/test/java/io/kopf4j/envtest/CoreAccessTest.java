package io.kopf4j.envtest;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kopf4j.Resource;
import org.junit.jupiter.api.Test;

class CoreAccessTest {
    @Test
    void onTheClasspathTheKitReachesCoresInternals() {
        assertThatCode(() -> CoreAccess.require(Resource.class.getModule(), LocalCluster.class.getModule()))
                .doesNotThrowAnyException();
    }

    /** A named module that does not export the packages to the kit: as io.kopf4j on a modular project's module path. */
    @Test
    void aNamedCoreThatDoesNotExportItsInternalsToTheKitIsOneErrorNamingTheSetting() {
        Module named = Object.class.getModule();
        assertThatThrownBy(() -> CoreAccess.require(named, LocalCluster.class.getModule()))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("kopf4j's test kit (the classpath) cannot reach io.kopf4j.internal.engines.permissions of module"
                        + " java.base: a modular project's tests run io.kopf4j on the module path and the test kit on"
                        + " the classpath, where kopf4j-core does not export its internals. Run the tests on the"
                        + " classpath: Surefire's <useModulePath>false</useModulePath> (docs/embedding.md).");
    }
}
