package io.kopf4j.internal.clients;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;

/**
 * Requests to the API server made a few at a time, each on a virtual thread, their answers in the
 * order of the requests: a round trip each for dozens of them costs seconds on a remote cluster,
 * all at once would open a connection (a TLS handshake) each and crowd the API server.
 *
 * <pre>{@code
 * List<Boolean> allowed = ConcurrentRequests.inOrder(questions, 32);
 * }</pre>
 */
public final class ConcurrentRequests {
    private ConcurrentRequests() {
    }

    /**
     * Makes the requests, at most {@code atOnce} in flight, and waits for all of them.
     *
     * @param requests the requests, each answering one value
     * @param atOnce how many may be in flight at once
     * @return the answers, in the order of the requests
     * @throws ExecutionException with the first failure in the requests' order; the other requests are cancelled
     * @throws InterruptedException if the thread is interrupted while waiting; the requests are cancelled
     */
    public static <T> List<T> inOrder(List<Callable<T>> requests, int atOnce) throws ExecutionException, InterruptedException {
        Semaphore inFlight = new Semaphore(atOnce);
        try (ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor()) {
            List<Future<T>> answers = new ArrayList<>();
            for (Callable<T> request : requests) {
                answers.add(executor.submit(() -> {
                    inFlight.acquire();
                    try {
                        return request.call();
                    } finally {
                        inFlight.release();
                    }
                }));
            }
            try {
                List<T> results = new ArrayList<>(answers.size());
                for (Future<T> answer : answers) {
                    results.add(answer.get());
                }
                return results;
            } catch (ExecutionException | InterruptedException e) {
                executor.shutdownNow();   // the first failure is the answer: the other requests are not waited for
                throw e;
            }
        }
    }
}
