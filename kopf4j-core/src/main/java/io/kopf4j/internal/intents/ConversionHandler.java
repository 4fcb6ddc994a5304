package io.kopf4j.internal.intents;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Version;
import io.kopf4j.Conversion;
import io.kopf4j.InvalidHandlerException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.function.Function;

/**
 * A conversion between two versions of one custom resource kind ({@code @On.Convert}, or a
 * {@link Conversion}): checked when registered, so that a wrong declaration fails the start.
 *
 * <pre>{@code
 * ConversionHandler up = ConversionHandler.of(Conversion.of(V1alpha1.class, V1.class, old -> ...), "lambda");
 * up.from().version();   // "v1alpha1"
 * }</pre>
 *
 * @param from the source version
 * @param to the target version
 * @param function converts an instance of {@code from.type()} into one of {@code to.type()}; may throw
 * @param origin where it was declared, for messages
 */
public record ConversionHandler(VersionedType from, VersionedType to, Function<Object, Object> function, String origin) {
    /**
     * A class of one version of a custom resource, as fabric8's annotations describe it.
     *
     * @param type the class
     * @param group its {@code @Group}
     * @param version its {@code @Version}
     * @param kind its kind (fabric8's: {@code @Kind} or the simple name)
     * @param storage its {@code @Version(storage = ...)}: the hub of its kind's conversions
     */
    public record VersionedType(Class<? extends HasMetadata> type, String group, String version, String kind,
                                boolean storage) {
        /** {@return {@code group/version}, as objects' {@code apiVersion} names it} */
        public String apiVersion() {
            return group + "/" + version;
        }

        /** {@return {@code Widget.example.com}, or {@code ConfigMap.v1} for the core group} */
        public String named() {
            return kind + "." + (group.isEmpty() ? version : group);
        }

        /** {@return the class as messages name it: {@code v1alpha1 Widget (com.example.v1alpha1.Widget)}} */
        @Override
        public String toString() {
            return version + " " + kind + " (" + type.getName() + ")";
        }
    }

    /**
     * A lambda's conversion.
     *
     * @throws InvalidHandlerException if the classes are not two versions of one kind
     */
    @SuppressWarnings("unchecked")
    public static ConversionHandler of(Conversion<?, ?> conversion, String origin) {
        Function<Object, Object> function = (Function<Object, Object>) conversion.function();
        return checked(origin, versioned(origin, conversion.from()), versioned(origin, conversion.to()), function);
    }

    /**
     * A method's conversion: one parameter, the source version's class; it returns the target's.
     *
     * @param instance the object to call it on, or null for a static method
     * @throws InvalidHandlerException naming the method if it is declared wrongly
     */
    public static ConversionHandler bind(Method method, Object instance) {
        String origin = ParameterBinder.describe(method);
        if (method.getParameterCount() != 1) {
            throw new InvalidHandlerException("Conversion " + origin + " must take exactly one parameter: the object"
                    + " in its source version (a class with @Group and @Version)");
        }
        if (!method.trySetAccessible()) {
            throw new InvalidHandlerException("Conversion " + origin + " is not accessible; make it public");
        }
        VersionedType from = versioned(origin, method.getParameterTypes()[0]);
        VersionedType to = versioned(origin, method.getReturnType());
        Object target = Modifier.isStatic(method.getModifiers()) ? null : instance;
        return checked(origin, from, to, source -> {
            try {
                return method.invoke(target, source);
            } catch (InvocationTargetException e) {
                throw e.getCause() instanceof RuntimeException runtime ? runtime : new IllegalStateException(e.getCause());
            } catch (IllegalAccessException e) {
                throw new IllegalStateException(e);
            }
        });
    }

    private static ConversionHandler checked(String origin, VersionedType from, VersionedType to,
                                             Function<Object, Object> function) {
        if (!from.group().equals(to.group()) || !from.kind().equals(to.kind())) {
            throw new InvalidHandlerException("Conversion " + origin + " converts between two kinds, " + from.named()
                    + " and " + to.named() + ": a conversion is between two versions of one kind");
        }
        if (from.version().equals(to.version())) {
            throw new InvalidHandlerException("Conversion " + origin + " converts version " + from.version()
                    + " to itself: give it the classes of two versions");
        }
        return new ConversionHandler(from, to, function, origin);
    }

    private static VersionedType versioned(String origin, Class<?> type) {
        Group group = type.getAnnotation(Group.class);
        Version version = type.getAnnotation(Version.class);
        if (!HasMetadata.class.isAssignableFrom(type) || group == null || version == null) {
            throw new InvalidHandlerException("Conversion " + origin + ": " + type.getName() + " is not a version of a"
                    + " custom resource: it needs to extend CustomResource (or implement HasMetadata) and carry"
                    + " fabric8's @Group and @Version");
        }
        @SuppressWarnings("unchecked")
        Class<? extends HasMetadata> resource = (Class<? extends HasMetadata>) type;
        return new VersionedType(resource, group.value(), version.value(), HasMetadata.getKind(resource),
                version.storage());
    }
}
