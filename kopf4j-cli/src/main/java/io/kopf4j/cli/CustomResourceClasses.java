package io.kopf4j.cli;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Version;
import io.kopf4j.OperatorException;
import io.kopf4j.internal.loading.HandlerSources;
import java.lang.annotation.Annotation;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The custom resource classes named on {@code kopf4j crd}'s command line, loaded as
 * {@code kopf4j run} loads handlers: a class name on the classpath must be one; a {@code .java}
 * file or a jar gives the concrete ones among its classes, at least one. Each must extend fabric8's
 * {@code CustomResource} and carry {@code @Group} and {@code @Version}; anything else is one
 * error naming the class.
 *
 * <pre>{@code
 * List<Class<? extends HasMetadata>> classes = CustomResourceClasses.load(List.of("Widget.java", "com.example.Gadget"));
 * }</pre>
 */
final class CustomResourceClasses {
    private static final String WHAT = "custom resources";

    /** An annotation that a custom resource class needs, with an example for the error. */
    private record Needed(Class<? extends Annotation> annotation, String example) {
    }

    private static final List<Needed> NEEDED = List.of(new Needed(Group.class, "example.com"), new Needed(Version.class, "v1"));

    private CustomResourceClasses() {
    }

    /** The custom resource classes of these items, each once, in the order given. */
    static List<Class<? extends HasMetadata>> load(List<String> items) {
        Set<Class<? extends HasMetadata>> classes = new LinkedHashSet<>();
        for (String item : items) {
            List<Class<?>> loaded = HandlerSources.classes(item, WHAT);
            if (item.endsWith(".java") || item.endsWith(".jar")) {
                classes.addAll(among(item, loaded));
            } else {
                classes.add(checked(loaded.getFirst()));
            }
        }
        return new ArrayList<>(classes);
    }

    private static List<Class<? extends HasMetadata>> among(String item, List<Class<?>> loaded) {
        List<Class<? extends HasMetadata>> found = loaded.stream()
                .filter(type -> CustomResource.class.isAssignableFrom(type) && !Modifier.isAbstract(type.getModifiers()))
                .<Class<? extends HasMetadata>>map(CustomResourceClasses::checked)
                .toList();
        if (found.isEmpty()) {
            throw new OperatorException("no custom resource classes in " + item + ": no class extends "
                    + CustomResource.class.getName());
        }
        return found;
    }

    private static Class<? extends HasMetadata> checked(Class<?> type) {
        if (!CustomResource.class.isAssignableFrom(type)) {
            throw new OperatorException(type.getName() + " is not a custom resource class: it does not extend "
                    + CustomResource.class.getName());
        }
        List<Needed> missing = NEEDED.stream().filter(needed -> !type.isAnnotationPresent(needed.annotation())).toList();
        if (!missing.isEmpty()) {
            throw new OperatorException("custom resource class " + type.getName() + " has no "
                    + missing.stream().map(needed -> "@" + needed.annotation().getSimpleName()).collect(Collectors.joining(" and no "))
                    + ": annotate it with " + missing.stream()
                    .map(needed -> "@" + needed.annotation().getName() + "(\"" + needed.example() + "\")")
                    .collect(Collectors.joining(" and ")));
        }
        return type.asSubclass(HasMetadata.class);
    }
}
