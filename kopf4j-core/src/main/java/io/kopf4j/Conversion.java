package io.kopf4j;

import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.Objects;
import java.util.function.Function;

/**
 * A conversion between two versions of a custom resource, registered without annotations: the
 * lambda form of {@link On.Convert}, with the same rules (hub and spoke through the storage
 * version, metadata kept by kopf4j, an exception refuses the conversion).
 *
 * <pre>{@code
 * Operator.builder()
 *     .conversions(
 *         Conversion.of(v1alpha1.Widget.class, v1.Widget.class, old -> Widgets.up(old)),
 *         Conversion.of(v1.Widget.class, v1alpha1.Widget.class, hub -> Widgets.down(hub)))
 *     .settings(settings)   // settings.admission.server serves them
 *     .build();
 * }</pre>
 *
 * @param <S> the class of the source version
 * @param <T> the class of the target version
 */
public final class Conversion<S extends HasMetadata, T extends HasMetadata> {
    private final Class<S> from;
    private final Class<T> to;
    private final Function<? super S, ? extends T> function;

    private Conversion(Class<S> from, Class<T> to, Function<? super S, ? extends T> function) {
        this.from = Objects.requireNonNull(from, "from");
        this.to = Objects.requireNonNull(to, "to");
        this.function = Objects.requireNonNull(function, "function");
    }

    /**
     * A conversion from one version's class to another's, of the same group and kind.
     *
     * @param from the source version's class, with {@code @Group} and {@code @Version}
     * @param to the target version's class, with {@code @Group} and {@code @Version}
     * @param function makes the target from the source; its metadata may be left empty
     * @param <S> the class of the source version
     * @param <T> the class of the target version
     * @return the conversion, for {@link Operator.Builder#conversions(Conversion...)}, which checks it
     */
    public static <S extends HasMetadata, T extends HasMetadata> Conversion<S, T> of(
            Class<S> from, Class<T> to, Function<? super S, ? extends T> function) {
        return new Conversion<>(from, to, function);
    }

    /** {@return the source version's class} */
    public Class<S> from() {
        return from;
    }

    /** {@return the target version's class} */
    public Class<T> to() {
        return to;
    }

    /** {@return the function that converts} */
    public Function<? super S, ? extends T> function() {
        return function;
    }
}
