package io.kopf4j.internal.intents;

import io.kopf4j.HandlerDescription.Option;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The options that only some kinds of handler take (a daemon's cancellation, a timer's interval, a
 * webhook's operations), as {@link HandlerSpec} checked them, kept by their type. The engine that
 * uses an option asks its handler for it by that type, so a new option of one kind crosses only its
 * declaration (annotation attribute, builder method, {@link Option} record), its rule in
 * {@link HandlerSpec}, and that engine: the handler records between them do not change.
 *
 * <pre>{@code
 * Duration polling = daemon.options().get(Option.CancellationPolling.class)
 *         .map(Option.CancellationPolling::period).orElse(settings.polling());
 * }</pre>
 */
public final class KindOptions {
    /** None: the handlers whose kind takes no such options. */
    public static final KindOptions NONE = new KindOptions(Map.of());

    private final Map<Class<? extends Option>, Option> byType;

    private KindOptions(Map<Class<? extends Option>, Option> byType) {
        this.byType = Map.copyOf(byType);
    }

    /**
     * {@return the option of this type, if the handler was given one}
     *
     * @param type the option's record type
     * @param <T> the option's record type
     */
    public <T extends Option> Optional<T> get(Class<T> type) {
        return Optional.ofNullable(type.cast(byType.get(type)));
    }

    /**
     * {@return whether the handler was given an option of this type (a flag such as {@code sharp()})}
     *
     * @param type the option's record type
     */
    public boolean has(Class<? extends Option> type) {
        return byType.containsKey(type);
    }

    @Override
    public String toString() {
        return byType.values().toString();
    }

    /** Collects the checked options while a spec is made; a later option of a type replaces an earlier one. */
    static final class Collected {
        private final Map<Class<? extends Option>, Option> byType = new LinkedHashMap<>();

        void put(Option option) {
            byType.put(option.getClass(), option);
        }

        boolean has(Class<? extends Option> type) {
            return byType.containsKey(type);
        }

        void remove(Class<? extends Option> type) {
            byType.remove(type);
        }

        KindOptions options() {
            return byType.isEmpty() ? NONE : new KindOptions(byType);
        }
    }
}
