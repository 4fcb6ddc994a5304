package io.kopf4j.internal.clients;

import io.fabric8.kubernetes.client.KubernetesClientException;
import io.kopf4j.OperatorSettings;
import io.kopf4j.internal.structs.DurationTexts;
import java.io.IOException;
import java.time.Duration;
import java.util.Collection;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
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
    /** No retries at all: every failure is thrown at once. */
    public static final ApiRetries NONE = new ApiRetries(List.of(), false);

    private final Iterable<Duration> backoffs;
    private final boolean enforceRetryAfter;
    private final Predicate<KubernetesClientException> retryable;

    public ApiRetries(Iterable<Duration> backoffs, boolean enforceRetryAfter) {
        this(backoffs, enforceRetryAfter, ApiRetries::retryable);
    }

    private ApiRetries(Iterable<Duration> backoffs, boolean enforceRetryAfter, Predicate<KubernetesClientException> retryable) {
        this.backoffs = backoffs;
        this.enforceRetryAfter = enforceRetryAfter;
        this.retryable = retryable;
    }

    /** The policy of {@code settings.networking}: {@code errorBackoffs} and {@code enforceRetryAfter}. */
    public static ApiRetries of(OperatorSettings settings) {
        return new ApiRetries(settings.networking.errorBackoffs, settings.networking.enforceRetryAfter);
    }

    /**
     * The same backoffs for a busy server's answers only (429 and 5xx), for the requests of the
     * operator's start (discovery, permission checks): a server that cannot be reached there, or
     * that refuses the credentials or the permission, is reported at once, as bad input is.
     */
    public ApiRetries busyServerOnly() {
        return new ApiRetries(backoffs, enforceRetryAfter, e -> e.getCode() == 429 || e.getCode() >= 500);
    }

    /**
     * Calls the request, retrying retryable failures; blocks only the calling (virtual) thread. The
     * attempts are logged with Kopf's lines ({@code Request attempt #1/9 failed; will retry: PATCH
     * https://... -> ...}), the failure as its root cause ({@link ApiErrors#summary}); its trace
     * only at debug level, as these failures are expected and the trace says nothing more.
     *
     * @param what the method and the absolute URL, as Kopf names the request: {@code PATCH https://...}
     * @param server the API server's URL, named when it cannot be reached
     */
    public <T> T call(String what, String server, Logger logger, Supplier<T> request) {
        Iterator<Duration> delays = backoffs.iterator();
        String count = backoffs instanceof Collection<?> sized ? "/" + (sized.size() + 1) : "";
        for (int attempt = 1; ; attempt++) {
            String idx = "#" + attempt + count;
            try {
                if (attempt > 1) {
                    logger.debug("Request attempt {}: {}", idx, what);
                }
                T result = request.get();
                if (attempt > 1) {
                    logger.debug("Request attempt {} succeeded: {}", idx, what);
                }
                return result;
            } catch (KubernetesClientException e) {
                if (!retryable.test(e)) {
                    throw e;
                }
                String summary = ApiErrors.summary(e, server);
                if (!delays.hasNext()) {
                    logger.error("Request attempt {} failed; escalating: {} -> {}", idx, what, summary);
                    logger.debug("The failed request attempt {}:", idx, e);
                    throw e;
                }
                Duration delay = delayFor(e, delays.next(), what, logger);
                logger.error("Request attempt {} failed; will retry: {} -> {}", idx, what, summary);
                logger.debug("The failed request attempt {}:", idx, e);
                sleep(delay);
            }
        }
    }

    /**
     * A GET (an object, a page of a listing, a discovery document), retried, and logged as Kopf names
     * it: {@code GET https://...}.
     */
    public Map<String, Object> get(ApiRequest request, Logger logger) {
        return call("GET " + request.url(), request.server(), logger, request::get);
    }

    /** A page of a listing ({@link ApiRequest#list}), retried as {@link #get} is. */
    public ApiRequest.Listing list(ApiRequest request, Logger logger) {
        return call("GET " + request.url(), request.server(), logger, request::list);
    }

    static boolean retryable(KubernetesClientException e) {
        int code = e.getCode();
        if (code <= 0) {
            return hasIoCause(e);
        }
        return code >= 500 || code == 401 || code == 403 || code == 429 || code == 408;
    }

    private Duration delayFor(KubernetesClientException e, Duration own, String what, Logger logger) {
        Duration delay = delayFor(e, own);
        if (delay != own) {
            logger.debug("Overriding the backoff {}s with the retry-after {}s from the server: {}",
                    DurationTexts.seconds(own), DurationTexts.seconds(delay), what);
        }
        return delay;
    }

    /**
     * How long to wait before retrying after this failure when the own backoff is {@code own}: a
     * 429's Retry-After if it is longer (or always, if enforced), else the own backoff.
     */
    public Duration delayFor(KubernetesClientException e, Duration own) {
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
