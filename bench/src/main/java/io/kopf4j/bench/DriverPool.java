package io.kopf4j.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.IntConsumer;

/**
 * The benchmark's client threads: one request per object, for objects 0 … N-1, on 32 platform
 * threads (as many as every benchmark has used, so that their phases compare), returning when
 * every request has been answered.
 *
 * <pre>{@code
 * DriverPool.forEach(1000, "create", examples::create);
 * }</pre>
 */
final class DriverPool {
    static final int THREADS = 32;

    private DriverPool() {
    }

    /**
     * Runs {@code request} for each index; its answers are visible to the caller when this returns.
     *
     * @throws IllegalStateException naming {@code what} if a request failed
     */
    static void forEach(int n, String what, IntConsumer request) throws InterruptedException {
        try (ExecutorService pool = Executors.newFixedThreadPool(THREADS)) {
            List<Future<?>> requests = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                int index = i;
                requests.add(pool.submit(() -> request.accept(index)));
            }
            for (Future<?> done : requests) {
                done.get();
            }
        } catch (ExecutionException e) {
            throw new IllegalStateException("the benchmark's " + what + " request failed", e.getCause());
        }
    }
}
