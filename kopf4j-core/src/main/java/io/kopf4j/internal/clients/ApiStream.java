package io.kopf4j.internal.clients;

import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.http.AsyncBody;
import io.fabric8.kubernetes.client.http.HttpClient;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.HttpResponse;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.BiFunction;

/**
 * A streaming GET in flight (a watch): every line of the answer, one JSON object each, is handed
 * to the consumer as a map as soon as it arrives, until the server ends the stream or
 * {@link #close()} closes it. Opened by {@link ApiRequest#stream}, over the client's own
 * HTTP connection and interceptors, without a request timeout: a watch lasts as long as the
 * server keeps it open.
 *
 * <p>{@link #ended()} completes normally when the stream ends: the server closed it (at its
 * {@code timeoutSeconds}, or dropping a watcher that lags behind), the connection broke after the
 * answer began, or it was closed here; a watch then goes on from its last version. It completes
 * exceptionally with a {@link KubernetesClientException} when the request fails (no connection,
 * or an HTTP error answer: its code and the API server's Status, as from {@link ApiRequest#send}),
 * when a line is not even a watch-event (an object that cannot be parsed is handed over as
 * {@link UnreadableObject} instead) or the consumer fails, or with whatever {@code KubernetesClientException} the consumer throws
 * to end the stream (for a watch's {@code ERROR} event).
 *
 * <pre>{@code
 * ApiStream stream = ApiRequest.collection(client, resource, "default")
 *         .query("watch", "true").query("resourceVersion", "12345")
 *         .stream(event -> System.out.println(event.get("type")), unreadable -> System.out.println(unreadable.reason()));
 * stream.ended().get(1, TimeUnit.MINUTES);
 * stream.close();
 * }</pre>
 */
public final class ApiStream {
    private final CompletableFuture<Void> ended = new CompletableFuture<>();
    private final CompletableFuture<HttpResponse<AsyncBody>> call;
    private final JsonLines lines;
    /** The answer of a failed request: the API server's Status, read to its end before it is reported. */
    private final ByteArrayOutputStream failedAnswer = new ByteArrayOutputStream();
    private volatile boolean successful;
    private volatile AsyncBody body;
    private volatile KubernetesClientException consumerFailure;
    private volatile boolean closed;

    ApiStream(HttpClient http, HttpRequest request, JsonLines lines,
              BiFunction<HttpResponse<?>, byte[], KubernetesClientException> failure) {
        this.lines = lines;
        call = http.consumeBytes(request, this::received);
        call.whenComplete((response, error) -> {
            if (error != null) {
                fail(error instanceof CancellationException ? null : requestFailure(error));
                return;
            }
            body = response.body();
            successful = response.isSuccessful();
            if (closed) {
                body.cancel();
            }
            body.done().whenComplete((done, broken) -> {
                if (consumerFailure != null) {
                    fail(consumerFailure);
                } else if (!successful) {
                    fail(failure.apply(response, failedAnswer.toByteArray()));
                } else {
                    // A connection that broke in mid-stream ends it as the server's own close does.
                    finish(broken == null);
                }
            });
            body.consume();
        });
    }

    /** Completes when the stream ends; see the class's description for how. */
    public CompletableFuture<Void> ended() {
        return ended;
    }

    /** Closes the stream at once; no more lines are handed over. */
    public void close() {
        closed = true;
        call.cancel(true);
        AsyncBody current = body;
        if (current != null) {
            current.cancel();
        }
        ended.complete(null);
    }

    /** The bytes as they arrive: lines of a successful answer to the consumer, the Status of a failed one kept. */
    private void received(List<ByteBuffer> buffers, AsyncBody asyncBody) {
        for (ByteBuffer buffer : buffers) {
            if (closed) {
                return;
            }
            if (successful) {
                handOver(() -> lines.feed(buffer));
            } else {
                byte[] bytes = new byte[buffer.remaining()];
                buffer.get(bytes);
                failedAnswer.writeBytes(bytes);
            }
        }
        asyncBody.consume();
    }

    private void finish(boolean complete) {
        if (complete && !closed) {
            try {
                handOver(lines::finish);
            } catch (KubernetesClientException failed) {
                fail(failed);
                return;
            }
        }
        ended.complete(null);
    }

    /**
     * Parses lines and hands them to the consumer. Its failure (or a line that is not JSON) is kept
     * to end the stream with, and thrown: that makes the HTTP client stop reading the answer.
     */
    private void handOver(Runnable parsing) {
        try {
            parsing.run();
        } catch (KubernetesClientException e) {
            consumerFailure = e;
            throw e;
        } catch (RuntimeException e) {
            consumerFailure = new KubernetesClientException("Couldn't process the watch-stream: " + e.getMessage(), e);
            throw consumerFailure;
        }
    }

    /** Ends the stream with this failure, or normally for null (cancelled) or after {@link #close()}. */
    private void fail(RuntimeException failure) {
        if (failure == null || closed) {
            ended.complete(null);
        } else {
            ended.completeExceptionally(failure);
        }
    }

    /** fabric8's exception for a request that got no answer (its launderThrowable throws those instead of returning them). */
    private static KubernetesClientException requestFailure(Throwable error) {
        Throwable cause = error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
        return cause instanceof KubernetesClientException failure ? failure : new KubernetesClientException("An error has occurred.", cause);
    }
}
