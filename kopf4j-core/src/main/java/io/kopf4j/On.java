package io.kopf4j;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Handler annotations, one per kind of change, as Kopf's {@code @kopf.on.*} decorators.
 *
 * <p>A handler is a plain method that declares only the parameters it needs; they are bound by
 * type ({@link Spec}, {@link Meta}, {@link Body}, {@link Patch}, {@link Diff}, {@link Resource},
 * {@link org.slf4j.Logger}, ...) or, for strings and maps, by name ({@code name},
 * {@code namespace}, {@code uid}, {@code labels}, {@code annotations}). A non-null return value is
 * stored in the object's {@code status.<handler id>}.
 *
 * <pre>{@code
 * public class Example {
 *     @On.Create("kopfexamples")
 *     public Map<String, Object> create(Spec spec, String name, Logger logger) {
 *         logger.info("Created {} with spec: {}", name, spec);
 *         return Map.of("message", "Resource " + name + " created successfully");
 *     }
 * }
 * }</pre>
 *
 * <p>The resource is given as in Kopf: a plural, singular, kind or short name of any group
 * ({@code "kopfexamples"}), kubectl style ({@code "kopfexamples.kopf.dev"}), or as
 * group, version and plural ({@code {"kopf.dev", "v1", "kopfexamples"}}); it is resolved through
 * the API server's discovery endpoints.
 */
public final class On {
    private On() {
    }

    /**
     * Runs when an object is created, or first seen without kopf4j's (or Kopf's) record of a
     * previous handling. The handler id is the method name unless {@link #id()} is set.
     */
    @Documented
    @Retention(RetentionPolicy.RUNTIME)
    @Target(ElementType.METHOD)
    public @interface Create {
        /** The resource selector: one to three strings, as described on {@link On}. */
        String[] value();

        /** The handler id; by default the method name. It names {@code status.<id>}. */
        String id() default "";
    }
}
