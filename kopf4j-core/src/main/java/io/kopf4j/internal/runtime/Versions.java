package io.kopf4j.internal.runtime;

import java.util.Optional;

/**
 * kopf4j's own version, from its jar's manifest ({@code Implementation-Version}), as Kopf's
 * {@code versions.version}: absent when run from classes rather than the jar (tests, an IDE).
 *
 * <pre>{@code
 * String agent = "kopf4j/" + Versions.kopf4j().orElse("unknown");
 * }</pre>
 */
public final class Versions {
    private Versions() {
    }

    /** {@return the version, e.g. {@code 0.1.0}; empty if the jar does not say} */
    public static Optional<String> kopf4j() {
        return Optional.ofNullable(Versions.class.getPackage().getImplementationVersion());
    }
}
