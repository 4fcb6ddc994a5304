package io.kopf4j.internal.intents;

import io.kopf4j.InvalidHandlerException;
import io.kopf4j.Permission;
import java.util.Arrays;
import java.util.List;

/**
 * One {@link Permission} of a handler class: what its handlers do with the API themselves.
 *
 * <pre>{@code
 * DeclaredPermission.of(DatabaseOperator.class)   // [apps statefulsets [get, create, patch] (@Permission on DatabaseOperator), ...]
 * }</pre>
 *
 * @param group the API group, empty for the core one
 * @param resources the plural names, or {@code plural/subresource}
 * @param verbs the verbs
 * @param origin where it is declared, for the rules' comments: {@code @Permission on DatabaseOperator}
 */
public record DeclaredPermission(String group, List<String> resources, List<String> verbs, String origin) {
    public DeclaredPermission {
        resources = List.copyOf(resources);
        verbs = List.copyOf(verbs);
    }

    /**
     * The class's {@link Permission} annotations.
     *
     * @throws InvalidHandlerException naming the class, for a wildcard or an empty list
     */
    public static List<DeclaredPermission> of(Class<?> type) {
        String origin = "@Permission on " + type.getSimpleName();
        return Arrays.stream(type.getAnnotationsByType(Permission.class)).map(permission -> {
            List<String> resources = List.of(permission.resources());
            List<String> verbs = List.of(permission.verbs());
            for (List<String> values : List.of(resources, verbs)) {
                if (values.isEmpty() || values.stream().anyMatch(v -> v.isBlank() || v.contains("*"))) {
                    throw new InvalidHandlerException(origin + ": resources and verbs must be named, one by one,"
                            + " without wildcards; got resources " + resources + ", verbs " + verbs);
                }
            }
            return new DeclaredPermission(permission.group(), resources, verbs, origin);
        }).toList();
    }
}
