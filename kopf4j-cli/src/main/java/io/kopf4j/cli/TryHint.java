package io.kopf4j.cli;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;

/**
 * What {@code --local-cluster} suggests trying in another terminal: {@code kubectl apply -f} of a
 * sample object of a kind that the {@code --crd} files define, found next to them ({@code obj.yaml}
 * first, as in Kopf's examples, then the other YAML files by name), or of the user's own object when
 * there is none. The files given with {@code --crd} are already applied, so they are never suggested.
 */
final class TryHint {
    private static final String SAMPLE_NAME = "obj.yaml";
    private static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();

    private TryHint() {
    }

    /** The command line to print: {@code <kubectl> --kubeconfig <file> apply -f <sample or your object>.yaml}. */
    static String command(Path kubectl, Path kubeconfig, List<Path> crdFiles) {
        String object = sampleFor(crdFiles).map(Path::toString).orElse("<your object>.yaml");
        return kubectl + " --kubeconfig " + kubeconfig + " apply -f " + object;
    }

    /** A YAML file beside the CRD files with an object of a kind they define, as the user would name it. */
    static Optional<Path> sampleFor(List<Path> crdFiles) {
        Set<String> kinds = new LinkedHashSet<>();
        crdFiles.forEach(file -> objectsIn(file).stream()
                .filter(CustomResourceDefinition.class::isInstance)
                .map(crd -> ((CustomResourceDefinition) crd).getSpec().getNames().getKind())
                .forEach(kinds::add));
        Set<Path> given = new LinkedHashSet<>();
        crdFiles.forEach(file -> given.add(file.toAbsolutePath().normalize()));
        return crdFiles.stream()
                .map(file -> file.getParent() == null ? Path.of("") : file.getParent())
                .distinct()
                .flatMap(TryHint::yamlFilesIn)
                .filter(file -> !given.contains(file.toAbsolutePath().normalize()))
                .filter(file -> objectsIn(file).stream().anyMatch(object -> kinds.contains(object.getKind())))
                .findFirst();
    }

    private static Stream<Path> yamlFilesIn(Path directory) {
        // Listed in full here: the directory's stream must be closed before the caller reads the list.
        try (Stream<Path> files = Files.list(directory)) {
            return files
                    .filter(file -> file.toString().endsWith(".yaml") || file.toString().endsWith(".yml"))
                    .sorted(Comparator.comparing((Path file) -> !file.getFileName().toString().equals(SAMPLE_NAME))
                            .thenComparing(Path::getFileName))
                    .toList().stream();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list " + directory, e);
        }
    }

    /** The objects of a YAML file (one or several documents); none if it is not Kubernetes YAML. */
    private static List<HasMetadata> objectsIn(Path file) {
        try (InputStream in = Files.newInputStream(file)) {
            Object parsed = SERIALIZATION.unmarshal(in);
            List<?> items = parsed instanceof List<?> list ? list : parsed == null ? List.of() : List.of(parsed);
            return items.stream().filter(HasMetadata.class::isInstance).map(HasMetadata.class::cast).toList();
        } catch (IOException | RuntimeException notKubernetesYaml) {
            return List.of();
        }
    }
}
