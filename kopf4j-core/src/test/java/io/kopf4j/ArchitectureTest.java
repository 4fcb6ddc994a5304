package io.kopf4j;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The package dependencies run one way (docs/architecture.md): structures and storage at the
 * bottom, then the runtime and the API clients, the intents, the actions, the reactor (observation →
 * orchestration → queueing → processing), and on top the engines beside the flow and the kits
 * (toolkits for handlers, used through the public API). The public package {@code io.kopf4j} is
 * both the users' vocabulary (used by all) and the entry point (using all), so it is left out of
 * the slices.
 */
class ArchitectureTest {
    private static final JavaClasses CLASSES = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("io.kopf4j");

    @Test
    void internalPackagesHaveNoCycles() {
        slices().matching("io.kopf4j.(**)").should().beFreeOfCycles().check(CLASSES);
    }

    @Test
    void theReactorDoesNotDependOnTheEnginesBesideIt() {
        noClasses().that().resideInAPackage("io.kopf4j.reactor..")
                .should().dependOnClassesThat().resideInAPackage("io.kopf4j.engines..").check(CLASSES);
    }

    @Test
    void lowerLayersDoNotReachUp() {
        noClasses().that().resideInAnyPackage("io.kopf4j.structs..", "io.kopf4j.storage..", "io.kopf4j.runtime..",
                        "io.kopf4j.clients..")
                .should().dependOnClassesThat().resideInAnyPackage("io.kopf4j.intents..", "io.kopf4j.actions..",
                        "io.kopf4j.reactor..", "io.kopf4j.engines..", "io.kopf4j.logging..", "io.kopf4j.loading..")
                .check(CLASSES);
    }

    @Test
    void theFlowDoesNotDependOnTheKits() {
        noClasses().that().resideInAnyPackage("io.kopf4j.structs..", "io.kopf4j.storage..", "io.kopf4j.runtime..",
                        "io.kopf4j.clients..", "io.kopf4j.intents..", "io.kopf4j.actions..", "io.kopf4j.reactor..",
                        "io.kopf4j.logging..", "io.kopf4j.loading..")
                .should().dependOnClassesThat().resideInAPackage("io.kopf4j.kits..").check(CLASSES);
    }

    @Test
    void queueingKnowsNothingOfHandlers() {
        noClasses().that().resideInAPackage("io.kopf4j.reactor.queueing..")
                .should().dependOnClassesThat().resideInAnyPackage("io.kopf4j.intents..", "io.kopf4j.actions..",
                        "io.kopf4j.reactor.processing..")
                .check(CLASSES);
    }

    /** A newcomer finds any behaviour from the packages: each says what it holds and where Kopf has it. */
    @Test
    void everyPackageSaysWhatItIsAndItsKopfCounterpart() throws IOException {
        Path sources = Path.of("src/main/java");
        try (Stream<Path> files = Files.walk(sources)) {
            List<Path> packages = files.filter(file -> file.toString().endsWith(".java"))
                    .map(Path::getParent).filter(dir -> !dir.equals(sources)).distinct().toList();
            assertThat(packages).isNotEmpty().allSatisfy(dir -> assertThat(dir.resolve("package-info.java"))
                    .exists().content().contains("Kopf's counterpart"));
        }
    }
}
