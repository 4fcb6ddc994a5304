package io.kopf4j.storage;

import java.util.List;
import java.util.function.Function;

/** The multi-storages' read: the first storage that has the state and can read it. */
final class FirstReadable {
    private FirstReadable() {
    }

    /**
     * An unreadable state is passed over for the next storage's, and reported only if no storage has
     * a readable one.
     *
     * @param storages in the order to read them
     * @param fetch reads one storage: the state, or null if it has none
     * @return the first state found, or null if none has any
     * @throws UnreadableStateException the first storage's that cannot read what it keeps, if no other has a state
     */
    static <S, T> T of(List<S> storages, Function<S, T> fetch) {
        UnreadableStateException unreadable = null;
        for (S storage : storages) {
            try {
                T state = fetch.apply(storage);
                if (state != null) {
                    return state;
                }
            } catch (UnreadableStateException e) {
                unreadable = unreadable == null ? e : unreadable;
            }
        }
        if (unreadable != null) {
            throw unreadable;
        }
        return null;
    }
}
