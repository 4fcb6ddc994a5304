package io.kopf4j.internal.structs;

import java.lang.annotation.Annotation;
import java.lang.reflect.AnnotatedElement;
import java.lang.reflect.Field;
import java.lang.reflect.GenericArrayType;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.lang.reflect.WildcardType;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * A trap of CRDs made from Java types: a primitive field with fabric8's {@code @Default}. The CRD
 * says "1 if not given", but a Java client building the object always gives it: an unset
 * {@code int} is sent as {@code 0}, which the API server keeps (or refuses, below a {@code @Min}),
 * so the default never applies to objects made in Java. A boxed type ({@code Integer}) is left out
 * when unset, and the API server fills in the default.
 *
 * <p>Found by reflection over the fields of records and classes, into nested user types,
 * lists and maps; the annotation is matched by name, so that kopf4j needs no dependency on
 * fabric8's generator annotations.
 *
 * <pre>{@code
 * DefaultedPrimitives.of(GreetingSpec.class).forEach(System.err::println);
 * // GreetingSpec.replicas is a primitive int with @Default("1"): ...; declare it Integer
 * }</pre>
 */
public final class DefaultedPrimitives {
    private static final String DEFAULT = "io.fabric8.generator.annotation.Default";

    private DefaultedPrimitives() {
    }

    /**
     * {@return one warning per primitive field with a {@code @Default} in the type or the types its
     * fields hold, naming the class and the field; empty if none}
     *
     * @param type a custom resource class, or its spec's or status's type
     */
    public static List<String> of(Class<?> type) {
        List<String> warnings = new ArrayList<>();
        visit(type, new HashSet<>(), warnings);
        return warnings;
    }

    private static void visit(Type type, Set<Class<?>> seen, List<String> warnings) {
        if (type instanceof ParameterizedType generic) {
            visit(generic.getRawType(), seen, warnings);
            for (Type argument : generic.getActualTypeArguments()) {
                visit(argument, seen, warnings);
            }
            return;
        }
        if (type instanceof GenericArrayType array) {
            visit(array.getGenericComponentType(), seen, warnings);
            return;
        }
        if (type instanceof WildcardType wildcard) {
            for (Type bound : wildcard.getUpperBounds()) {
                visit(bound, seen, warnings);
            }
            return;
        }
        if (type instanceof Class<?> array && array.isArray()) {
            visit(array.getComponentType(), seen, warnings);
            return;
        }
        if (!(type instanceof Class<?> declared) || !isUserType(declared) || !seen.add(declared)) {
            return;
        }
        try {
            visitFields(declared, seen, warnings);
        } catch (LinkageError | RuntimeException e) {
            // A class whose fields cannot be read (a library's missing dependency, a malformed signature): a warning
            // is all this check gives, so it skips what it cannot see rather than fail the start or the command.
        }
    }

    private static void visitFields(Class<?> declared, Set<Class<?>> seen, List<String> warnings) {
        // A record's components are its fields too, where @Default (FIELD, METHOD) lands.
        for (Class<?> level = declared; level != null && isUserType(level); level = level.getSuperclass()) {
            for (Field field : level.getDeclaredFields()) {
                if (!Modifier.isStatic(field.getModifiers()) && !Modifier.isTransient(field.getModifiers())) {
                    check(level, field.getName(), field.getType(), field, warnings);
                    visit(field.getGenericType(), seen, warnings);
                }
            }
            // CustomResource<GreetingSpec, GreetingStatus>: the spec and status types are its type arguments.
            if (level.getGenericSuperclass() instanceof ParameterizedType parent) {
                for (Type argument : parent.getActualTypeArguments()) {
                    visit(argument, seen, warnings);
                }
            }
        }
    }

    private static void check(Class<?> owner, String name, Class<?> type, AnnotatedElement element, List<String> warnings) {
        if (!type.isPrimitive()) {
            return;
        }
        for (Annotation annotation : element.getAnnotations()) {
            if (annotation.annotationType().getName().equals(DEFAULT)) {
                warnings.add(owner.getSimpleName() + "." + name + " is a primitive " + type.getName() + " with @Default(\""
                        + defaultValue(annotation) + "\"): a Java client that leaves it unset sends " + zero(type)
                        + ", which the API server keeps instead of the default; declare it "
                        + boxed(type) + " to let the default apply");
            }
        }
    }

    private static String defaultValue(Annotation annotation) {
        try {
            return String.valueOf(annotation.annotationType().getMethod("value").invoke(annotation));
        } catch (ReflectiveOperationException e) {
            return "?";
        }
    }

    private static String zero(Class<?> type) {
        return type == boolean.class ? "false" : type == char.class ? "'\\u0000'" : "0";
    }

    private static String boxed(Class<?> type) {
        return switch (type.getName()) {
            case "int" -> "Integer";
            case "char" -> "Character";
            default -> Character.toUpperCase(type.getName().charAt(0)) + type.getName().substring(1);
        };
    }

    /** Types of the user's (or a library's) own, whose fields are worth a look: not the JDK's, fabric8's or kopf4j's. */
    private static boolean isUserType(Class<?> type) {
        String pkg = type.getPackageName();
        return !type.isPrimitive() && !type.isArray() && !type.isEnum() && !pkg.startsWith("java.")
                && !pkg.startsWith("javax.") && !pkg.startsWith("jdk.") && !pkg.startsWith("io.fabric8.")
                && !pkg.startsWith("com.fasterxml.") && !pkg.equals("io.kopf4j");
    }
}
