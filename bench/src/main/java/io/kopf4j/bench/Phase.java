package io.kopf4j.bench;

/**
 * The benchmark's phases, one after the other on the same N objects: create them all, change the
 * spec of each ({@code spec.generation} 1 to 2), delete them all.
 *
 * <pre>{@code
 * for (Phase phase : Phase.values()) { ... phase.label() ... }
 * }</pre>
 */
enum Phase {
    CREATE("create"),
    UPDATE("update"),
    DELETE("delete");

    private final String label;

    Phase(String label) {
        this.label = label;
    }

    String label() {
        return label;
    }
}
