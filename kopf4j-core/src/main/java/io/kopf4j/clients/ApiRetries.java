package io.kopf4j.clients;

import io.fabric8.kubernetes.client.KubernetesClientException;
import java.io.IOException;
import java.time.Duration;
import java.util.Iterator;
import java.util.function.Supplier;
import org.slf4j.Logger;

/**
 * Kopf's retrying of API requests: connection errors, timeouts, HTTP 5xx, 403 (seen during cluster
 * upgrades) and 429 (too many requests) are retried after each of the configured backoffs, and so
 * is a 401 that remains after the vault's re-login (the new credentials need another connection:
 * the retry takes it, or fails with a LoginError if there are none); other
 * errors, and the last failure, are thrown. A 429's Retry-After is honoured: the wait is the longer
 * of the own backoff and the server's, or exactly the server's if enforced.
 */
public final class ApiRetries {
    private final Iterable<Duration> backoffs;
    private final boolean enforceRetryAfter;

    public ApiRetries(Iterable<Duration> backoffs, boolean enforceRetryAfter) {
        this.backoffs = backoffs;
        this.enforceRetryAfter = enforceRetryAfter;
    }

    /**
     * Calls the request, retrying retryable failures; blocks only the calling (virtual) thread. Each
     * retry is logged as one line with the failure's root cause ({@link ApiErrors#summary}); its
     * trace only at debug level, as these failures are expected and the trace says nothing more.
     *
     * @param server the API server's URL, named when it cannot be reached
     */
    public <T> T call(String what, String server, Logger logger, Supplier<T> request) {
        Iterator<Duration> delays = backoffs.iterator();
        while (true) {
            try {
                return request.get();
            } catch (KubernetesClientException e) {
                if (!retryable(e) || !delays.hasNext()) {
                    throw e;
                }
                Duration delay = delayFor(e, delays.next());
                logger.error("Request attempt {} failed; will retry in {} seconds: {}", what, delay.toMillis() / 1000.0,
                        ApiErrors.summary(e, server));
                logger.debug("The failed request attempt {}:", what, e);
                sleep(delay);
            }
        }
    }

    static boolean retryable(KubernetesClientException e) {
        int code = e.getCode();
        if (code <= 0) {
            return hasIoCause(e);
        }
        return code >= 500 || code == 401 || code == 403 || code == 429 || code == 408;
    }

    private Duration delayFor(KubernetesClientException e, Duration own) {
        if (e.getCode() != 429 || e.getStatus() == null || e.getStatus().getDetails() == null
                || e.getStatus().getDetails().getRetryAfterSeconds() == null) {
            return own;
        }
        Duration server = Duration.ofSeconds(e.getStatus().getDetails().getRetryAfterSeconds());
        return enforceRetryAfter || server.compareTo(own) > 0 ? server : own;
    }

    private static boolean hasIoCause(Throwable e) {
        for (Throwable cause = e; cause != null && cause.getCause() != cause; cause = cause.getCause()) {
            if (cause instanceof IOException) {
                return true;
            }
        }
        return false;
    }

    private static void sleep(Duration delay) {
        try {
            Thread.sleep(delay);
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
            throw new KubernetesClientException("interrupted while waiting to retry", interrupted);
        }
    }
}
