package io.kopf4j;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.library.dependencies.SliceAssignment;
import com.tngtech.archunit.library.dependencies.SliceIdentifier;
import io.kopf4j.internal.runtime.Engine;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The package dependencies run one way (docs/architecture.md): structures and storage at the
 * bottom, then the runtime and the API clients, the intents, the actions, the reactor (observation →
 * orchestration → queueing → processing), and on top the engines beside the flow and the kits
 * (toolkits for handlers, used through the public API). The public package {@code io.kopf4j} is
 * the users' vocabulary, used by all; its façade {@code Operator} delegates to {@code running},
 * the one package that knows every engine.
 */
class ArchitectureTest {
    private static final JavaClasses CLASSES = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("io.kopf4j");

    /** Each package a slice, the root {@code io.kopf4j} too. */
    private static final SliceAssignment EVERY_PACKAGE = new SliceAssignment() {
        @Override
        public SliceIdentifier getIdentifierOf(JavaClass javaClass) {
            String name = javaClass.getPackageName();
            // The storages are public vocabulary too: settings name them, and they write into a Patch.
            return SliceIdentifier.of(name.equals("io.kopf4j.storage") ? "io.kopf4j" : name);
        }

        @Override
        public String getDescription() {
            return "every package of io.kopf4j, the root (with its storages) included";
        }
    };

    /** The façade users start with: its builder fills the registry, and it runs through {@code running}. */
    private static final DescribedPredicate<JavaClass> THE_FACADE = DescribedPredicate.describe("io.kopf4j.Operator",
            javaClass -> javaClass.getName().equals(Operator.class.getName())
                    || javaClass.getName().startsWith(Operator.class.getName() + "$"));

    @Test
    void noPackageIsInACircleTheRootIncluded() {
        slices().assignedFrom(EVERY_PACKAGE).should().beFreeOfCycles()
                .ignoreDependency(THE_FACADE, DescribedPredicate.alwaysTrue())
                .check(CLASSES);
    }

    @Test
    void theVocabularyKnowsNothingInternalButTheStructures() {
        noClasses().that().resideInAPackage("io.kopf4j").and(DescribedPredicate.not(THE_FACADE))
                .should().dependOnClassesThat().resideInAnyPackage("io.kopf4j.internal.intents..", "io.kopf4j.internal.actions..", "io.kopf4j.internal.reactor..",
                        "io.kopf4j.internal.engines..", "io.kopf4j.kits..", "io.kopf4j.internal.running..")
                .check(CLASSES);
    }

    /** Each feature beside the flow stands alone: {@code running} composes them. */
    @Test
    void enginesDoNotDependOnEachOther() {
        slices().matching("io.kopf4j.internal.engines.(*)..").should().notDependOnEachOther().check(CLASSES);
    }

    @Test
    void onlyRunningAndTheFacadeKnowEveryEngine() {
        noClasses().that().resideOutsideOfPackages("io.kopf4j.internal.running..", "io.kopf4j.internal.engines..")
                .and(DescribedPredicate.not(THE_FACADE))
                .should().dependOnClassesThat().resideInAnyPackage("io.kopf4j.internal.engines.activities..",
                        "io.kopf4j.internal.engines.admission..", "io.kopf4j.internal.engines.leadership..", "io.kopf4j.internal.engines.peering..",
                        "io.kopf4j.internal.engines.probing..", "io.kopf4j.internal.engines.sharding..", "io.kopf4j.internal.engines.daemons..",
                        "io.kopf4j.internal.engines.indexing..", "io.kopf4j.internal.engines.posting..", "io.kopf4j.internal.engines.permissions..")
                .check(CLASSES);
    }

    /** Every engine has the one lifecycle, and only the composition root drives it (in its one order). */
    @Test
    void theEnginesShareOneLifecycleThatOnlyTheRootDrives() {
        Map<String, Boolean> engines = CLASSES.stream().filter(c -> c.getPackageName().startsWith("io.kopf4j.internal.engines."))
                .collect(Collectors.toMap(JavaClass::getPackageName, c -> !c.isInterface() && c.isAssignableTo(Engine.class),
                        Boolean::logicalOr, TreeMap::new));
        assertThat(engines).as("the engines' packages, each with its engine").hasSize(12).doesNotContainValue(false);
        noClasses().that().resideOutsideOfPackage("io.kopf4j.internal.running..")
                .should().callMethodWhere(DescribedPredicate.describe("a step of an engine's lifecycle",
                        call -> call.getTarget().getOwner().isAssignableTo(Engine.class)
                                && Set.of("start", "stopTakingWork", "release").contains(call.getName())
                                && !call.getOriginOwner().isAssignableTo(Engine.class)))
                .check(CLASSES);
    }

    @Test
    void theReactorDoesNotDependOnTheEnginesBesideIt() {
        noClasses().that().resideInAPackage("io.kopf4j.internal.reactor..")
                .should().dependOnClassesThat().resideInAPackage("io.kopf4j.internal.engines..").check(CLASSES);
    }

    @Test
    void lowerLayersDoNotReachUp() {
        noClasses().that().resideInAnyPackage("io.kopf4j.internal.structs..", "io.kopf4j.storage..", "io.kopf4j.internal.runtime..",
                        "io.kopf4j.internal.clients..")
                .should().dependOnClassesThat().resideInAnyPackage("io.kopf4j.internal.intents..", "io.kopf4j.internal.actions..",
                        "io.kopf4j.internal.reactor..", "io.kopf4j.internal.engines..", "io.kopf4j.internal.logging..", "io.kopf4j.internal.watching..")
                .check(CLASSES);
        // The watch streams serve the reactor and the peering engine alike: they know neither.
        noClasses().that().resideInAPackage("io.kopf4j.internal.watching..")
                .should().dependOnClassesThat().resideInAnyPackage("io.kopf4j.internal.intents..", "io.kopf4j.internal.actions..",
                        "io.kopf4j.internal.reactor..", "io.kopf4j.internal.engines..")
                .check(CLASSES);
    }

    @Test
    void theFlowDoesNotDependOnTheKits() {
        noClasses().that().resideInAnyPackage("io.kopf4j.internal.structs..", "io.kopf4j.storage..", "io.kopf4j.internal.runtime..",
                        "io.kopf4j.internal.clients..", "io.kopf4j.internal.intents..", "io.kopf4j.internal.actions..", "io.kopf4j.internal.reactor..",
                        "io.kopf4j.internal.logging..")
                .should().dependOnClassesThat().resideInAPackage("io.kopf4j.kits..").check(CLASSES);
    }

    @Test
    void queueingKnowsNothingOfHandlers() {
        noClasses().that().resideInAPackage("io.kopf4j.internal.reactor.queueing..")
                .should().dependOnClassesThat().resideInAnyPackage("io.kopf4j.internal.intents..", "io.kopf4j.internal.actions..",
                        "io.kopf4j.internal.reactor.processing..")
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
