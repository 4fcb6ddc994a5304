package io.kopf4j.internal.clients;

import io.kopf4j.ConnectionInfo;
import io.kopf4j.LoginError;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Predicate;

/**
 * Kopf's vault: the credentials currently believed valid, by login handler id. API requests take
 * one of the highest priority (a random one among equals); a credential the API server rejects is
 * invalidated, and when none are left, every request waits while the login handlers run again
 * ({@link #awaitEmptiness()} wakes the authenticator). A short history of invalidated credentials
 * per handler keeps a login that returns the same rejected credential from looping forever.
 * Expired credentials are dropped without being remembered as invalid.
 *
 * <p>Blocking is by design: callers are virtual threads, and a request without credentials has
 * nothing better to do than wait for them.
 */
public final class Vault {
    /** Kopf keeps the last three invalid credentials per key. */
    private static final int INVALID_HISTORY = 3;
    /** Kopf's message when no credentials are left, with kopf4j's ways to provide them. */
    public static final String RAN_OUT = "Ran out of valid credentials. Add an @On.Login handler, point --kubeconfig or"
            + " $KUBECONFIG at a kubeconfig, or run in a pod with a service account.";

    /** One credential as stored: compared by identity, so that a re-added equal credential is new. */
    public static final class Item {
        private final String key;
        private final ConnectionInfo info;

        private Item(String key, ConnectionInfo info) {
            this.key = key;
            this.info = info;
        }

        public ConnectionInfo info() {
            return info;
        }
    }

    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    private final Map<String, Item> current = new LinkedHashMap<>();
    private final Map<String, List<ConnectionInfo>> invalid = new HashMap<>();
    private boolean ready;
    private boolean closed;

    /**
     * A credential to use: waits while a re-authentication runs, drops expired ones (and waits
     * for a re-authentication if that empties the vault).
     *
     * @throws LoginError if no credentials are left after the login handlers ran
     */
    public Item select() {
        return select(info -> true, true);
    }

    /**
     * A credential that this filter accepts (those of one connection), or null if there is none;
     * waits as {@link #select()}.
     */
    public Item select(Predicate<ConnectionInfo> filter) {
        return select(filter, false);
    }

    private Item select(Predicate<ConnectionInfo> filter, boolean required) {
        lock.lock();
        try {
            awaitReady();
            if (expire() && current.isEmpty()) {
                requestLogin();
                awaitReady();
            }
            List<Item> candidates = current.values().stream().filter(item -> filter.test(item.info)).toList();
            if (candidates.isEmpty()) {
                if (required) {
                    throw new LoginError(RAN_OUT);
                }
                return null;
            }
            int top = candidates.stream().mapToInt(item -> item.info.priority()).max().orElseThrow();
            List<Item> best = candidates.stream().filter(item -> item.info.priority() == top).toList();
            return best.get(ThreadLocalRandom.current().nextInt(best.size()));
        } finally {
            lock.unlock();
        }
    }

    /** The current credential this filter accepts, without waiting; null if none. */
    public Item find(Predicate<ConnectionInfo> filter) {
        lock.lock();
        try {
            return current.values().stream().filter(item -> filter.test(item.info)).findFirst().orElse(null);
        } finally {
            lock.unlock();
        }
    }

    /**
     * The API server rejected this credential: drop it and remember it as invalid. If that was the
     * last one, a re-authentication starts and this call waits for it.
     *
     * @throws LoginError if the re-authentication brought no credentials
     */
    public void invalidate(Item item) {
        lock.lock();
        try {
            if (current.get(item.key) == item) {
                current.remove(item.key);
                List<ConnectionInfo> history = invalid.computeIfAbsent(item.key, key -> new ArrayList<>());
                history.add(item.info);
                if (history.size() > INVALID_HISTORY) {
                    history.remove(0);
                }
            }
            if (current.isEmpty()) {
                requestLogin();
                awaitReady();
                if (current.isEmpty()) {
                    throw new LoginError(RAN_OUT);
                }
            }
        } finally {
            lock.unlock();
        }
    }

    /**
     * Adds the credentials of a (re-)authentication, except those already known to be invalid, and
     * lets the waiting requests go on.
     */
    public void populate(Map<String, ConnectionInfo> credentials) {
        lock.lock();
        try {
            credentials.forEach((key, info) -> {
                if (!invalid.getOrDefault(key, List.of()).contains(info)) {
                    current.put(key, new Item(key, info));
                }
            });
            ready = true;
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /** Blocks until the credentials have run out and a re-authentication is needed; false once closed. */
    public boolean awaitEmptiness() throws InterruptedException {
        lock.lock();
        try {
            while (ready && !closed) {
                changed.await();
            }
            return !closed;
        } finally {
            lock.unlock();
        }
    }

    public boolean isEmpty() {
        lock.lock();
        try {
            return current.isEmpty();
        } finally {
            lock.unlock();
        }
    }

    /** The operator stops: requests waiting for credentials fail instead of waiting forever. */
    public void close() {
        lock.lock();
        try {
            closed = true;
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    private void requestLogin() {
        if (ready) {
            ready = false;
            changed.signalAll();
        }
    }

    private void awaitReady() {
        while (!ready) {
            if (closed) {
                throw new LoginError("the operator is stopping; no credentials are coming");
            }
            try {
                changed.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new LoginError("interrupted while waiting for credentials", e);
            }
        }
    }

    /** Drops expired credentials; true if any were dropped. */
    private boolean expire() {
        Instant now = Instant.now();
        return current.values().removeIf(item -> item.info.expiration() != null && !now.isBefore(item.info.expiration()));
    }
}
