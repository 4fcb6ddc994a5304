package io.kopf4j.cli;

import io.kopf4j.Operator;
import io.kopf4j.OperatorException;
import io.kopf4j.OperatorSettings;
import io.kopf4j.internal.loading.SourceWatch;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The operator of one {@code kopf4j run}: one {@link Operator}, or with {@code --reload} one after
 * another. When a change to the handler sources is saved, the sources are compiled and the handlers
 * checked first; a compile error or an invalid handler leaves the running operator as it is. Then
 * the running operator stops as on SIGTERM (its handlers in flight finish, daemons and timers stop,
 * cleanup handlers run; finalizers and the handlers' progress stay on the objects) and a new one
 * starts from the new classes against the same cluster, as after a restart of the process. Nothing
 * here keeps the classes of a replaced operator.
 *
 * <pre>{@code
 * OperatorRun run = new OperatorRun(builder.build(), options::operatorBuilder, options.reloadableSources());
 * run.start();
 * run.awaitTermination();   // until stop(), or until the operator fails (lost its login)
 * run.stop();
 * }</pre>
 */
final class OperatorRun {
    private static final Logger LOG = LoggerFactory.getLogger(OperatorRun.class);

    private final Supplier<Operator.Builder> builders;
    private final List<Path> sources;
    private final CountDownLatch ended = new CountDownLatch(1);
    /** Counted down once the first operator's start has returned (or failed): reloads wait for it. */
    private final CountDownLatch firstStarted = new CountDownLatch(1);
    private final Object lock = new Object();
    /** The operator that serves, or null while a reload replaces it. */
    private Operator current;
    /** The operator that a reload is stopping, until it has stopped. */
    private Operator retiring;
    private SourceWatch watch;
    private boolean stopped;
    private volatile OperatorSettings settings;
    private volatile OperatorException failure;

    /**
     * @param first the operator to start
     * @param builders the builders of the next operators, from the sources as they are then; null: no reloads
     * @param sources the handler sources to watch for reloads
     */
    OperatorRun(Operator first, Supplier<Operator.Builder> builders, List<Path> sources) {
        this.current = first;
        this.settings = first.settings();
        this.builders = builders;
        this.sources = List.copyOf(sources);
    }

    /**
     * Starts the watch of the sources (with reloads) and then the first operator. The watch starts
     * first so that a change saved while the operator starts is not lost: its reload waits until
     * that start has returned.
     *
     * @throws OperatorException if the operator cannot start
     */
    void start() {
        Operator first;
        synchronized (lock) {
            first = current;
            if (builders != null && !stopped) {
                watch = SourceWatch.start(sources, this::reload);
            }
        }
        try {
            first.start();
        } catch (RuntimeException e) {
            synchronized (lock) {
                stopped = true;
                if (watch != null) {
                    watch.close();
                }
            }
            throw e;
        } finally {
            firstStarted.countDown();
        }
        follow(first);
    }

    /** Blocks until {@link #stop()} has stopped the operator, or the operator stopped by itself (it failed). */
    void awaitTermination() throws InterruptedException {
        ended.await();
    }

    /** {@return why the operator stopped by itself, if it did} */
    Optional<OperatorException> failure() {
        return Optional.ofNullable(failure);
    }

    /** {@return the settings of the latest operator, as its startup handlers left them} */
    OperatorSettings settings() {
        return settings;
    }

    /** Stops watching and stops the operator (and one that a reload is stopping), waiting for both; no reload follows. */
    void stop() {
        List<Operator> operators;
        synchronized (lock) {
            stopped = true;
            if (watch != null) {
                watch.close();
            }
            operators = Stream.of(current, retiring).filter(Objects::nonNull).toList();
        }
        try {
            for (Operator operator : operators) {
                operator.stop();
                operator.awaitTermination();   // also when another thread (a reload) is stopping it
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            ended.countDown();
        }
    }

    /** Ends the run when this operator stops by itself, not by {@link #stop()} or a reload. */
    private void follow(Operator operator) {
        Thread.ofVirtual().name("kopf4j-run-" + operator.id()).start(() -> {
            try {
                operator.awaitTermination();
            } catch (InterruptedException e) {
                return;
            }
            synchronized (lock) {
                if (stopped || operator != current) {
                    return;
                }
            }
            failure = operator.failure().orElse(null);
            ended.countDown();
        });
    }

    /** On the watch's thread: the new operator replaces the running one, if its handlers compile and are valid. */
    private void reload(List<Path> changed) {
        try {
            firstStarted.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return;
        }
        long begin = System.nanoTime();
        String files = changed.stream().map(file -> String.valueOf(file.getFileName())).collect(Collectors.joining(", "));
        LOG.debug("Reloading after changes to {}", files);
        Operator next;
        try {
            next = builders.get().build();
        } catch (RuntimeException | LinkageError e) {   // javac's diagnostics, an invalid handler, a failing constructor
            LOG.error("{}", e instanceof OperatorException ? e.getMessage() : e.toString());
            LOG.error("Reload failed; the previous handlers keep running.");
            return;
        }
        Operator previous;
        synchronized (lock) {
            if (stopped) {
                return;
            }
            previous = current;
            retiring = previous;
            current = null;
        }
        if (previous != null) {   // null after a failed start: nothing runs
            previous.stop();
            try {
                previous.awaitTermination();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
        synchronized (lock) {
            retiring = null;
            if (stopped) {
                return;
            }
            // Under the lock: a stop() meanwhile waits for the start, then stops this operator.
            try {
                next.start();
            } catch (RuntimeException e) {
                LOG.error("Reload failed: {}; no handlers run until the next change.", e.getMessage());
                return;
            }
            current = next;
            settings = next.settings();
        }
        follow(next);
        LOG.info("Reloaded the handlers in {} ms after changes to {}.", (System.nanoTime() - begin) / 1_000_000, files);
    }
}
