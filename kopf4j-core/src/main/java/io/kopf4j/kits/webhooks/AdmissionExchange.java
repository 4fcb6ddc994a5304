package io.kopf4j.kits.webhooks;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpsExchange;
import io.kopf4j.WebhookClientConfig;
import io.kopf4j.WebhookError;
import io.kopf4j.WebhookFn;
import io.kopf4j.WebhookRequest;
import io.kopf4j.internal.structs.Json;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLPeerUnverifiedException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One admission request over HTTP(S), as Kopf's {@code _serve}: {@code POST {path}/{id}}, the JSON
 * AdmissionReview to the admission engine, its answer as JSON (200). A malformed request
 * ({@link WebhookError}, unparsable JSON) is answered with its status and message instead; the
 * handler id, the headers and the client's certificate go along in a {@link WebhookRequest}. A body
 * larger than {@code maxRequestSize} ({@code maxConversionRequestSize} under {@code {path}/convert/},
 * where ConversionReviews come) is answered 413 unread, as aiohttp answers under Kopf; a fault of the
 * serving itself is a 500 for this request alone.
 *
 * <pre>{@code
 * server.createContext("/", new AdmissionExchange("", WebhookServer.DEFAULT_MAX_REQUEST_SIZE,
 *         WebhookServer.DEFAULT_MAX_CONVERSION_REQUEST_SIZE, requests));
 * }</pre>
 *
 * @param rootPath the server's root path, without a trailing slash (empty for none)
 * @param maxRequestSize the largest body read, in bytes
 * @param maxConversionRequestSize the largest body of a conversion request, in bytes
 * @param requests the admission engine
 */
record AdmissionExchange(String rootPath, long maxRequestSize, long maxConversionRequestSize, WebhookFn requests,
                         Semaphore conversionSlots) implements HttpHandler {
    /** How many conversion requests are read and served at once: each may take several times its size in memory. */
    static final int CONVERSION_SLOTS = 2;
    /** How long a conversion request waits for a slot: the API server's own timeout for the webhook. */
    private static final long CONVERSION_WAIT_SECONDS = 30;

    /** An exchange whose conversion requests are served {@value #CONVERSION_SLOTS} at a time. */
    AdmissionExchange(String rootPath, long maxRequestSize, long maxConversionRequestSize, WebhookFn requests) {
        this(rootPath, maxRequestSize, maxConversionRequestSize, requests, new Semaphore(CONVERSION_SLOTS, true));
    }

    private static final Logger LOGGER = LoggerFactory.getLogger(AdmissionExchange.class);
    private static final Map<Integer, String> PHRASES = Map.of(400, "Bad Request", 404, "Not Found", 409, "Conflict",
            413, "Request Entity Too Large", 503, "Service Unavailable");

    @Override
    public void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            String path = exchange.getRequestURI().getPath();  // decoded: %2F and %20 become / and space
            if (!path.startsWith(rootPath + "/")) {
                respond(exchange, 404, "text/plain", text(404, "Not Found"));
            } else if (!"POST".equals(exchange.getRequestMethod())) {
                respond(exchange, 405, "text/plain", text(405, "Method Not Allowed"));
            } else {
                String id = path.substring(rootPath.length() + 1);
                serve(exchange, id.isEmpty() ? null : id);
            }
        }
    }

    private void serve(HttpExchange exchange, String webhook) throws IOException {
        if (webhook == null || !webhook.startsWith(WebhookClientConfig.CONVERSION_PATH + "/")) {
            serve(exchange, webhook, body(exchange, maxRequestSize, "maxRequestSize"));
            return;
        }
        try {
            if (!conversionSlots.tryAcquire(CONVERSION_WAIT_SECONDS, TimeUnit.SECONDS)) {
                respond(exchange, 503, "text/plain", text(503, "Too many conversion requests at once"));
                return;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            respond(exchange, 503, "text/plain", text(503, "The server is stopping"));
            return;
        }
        try {
            serve(exchange, webhook, body(exchange, maxConversionRequestSize, "maxConversionRequestSize"));
        } finally {
            conversionSlots.release();
        }
    }

    private void serve(HttpExchange exchange, String webhook, byte[] body) throws IOException {
        if (body == null) {
            return;   // answered 413
        }
        Map<String, Object> review;
        try {
            review = Json.parseMap(body);
        } catch (IllegalArgumentException e) {
            respond(exchange, 400, "text/plain", text(400, e.getMessage()));
            return;
        }
        try {
            WebhookRequest request = new WebhookRequest(webhook, headers(exchange), sslpeer(exchange));
            respond(exchange, 200, "application/json", Json.mapper().writeValueAsBytes(requests.serve(review, request)));
        } catch (WebhookError e) {
            respond(exchange, e.httpStatus(), "text/plain", text(e.httpStatus(), e.getMessage()));
        } catch (RuntimeException | JsonProcessingException | StackOverflowError e) {
            LOGGER.error("Admission request failed unexpectedly.", e);
            respond(exchange, 500, "text/plain", text(500, "Internal Server Error"));
        }
    }

    /**
     * The body, read only up to the limit: a declared length above it is refused before anything is
     * read, a chunked body as soon as it passes the limit; null once refused (413, aiohttp's text).
     */
    private byte[] body(HttpExchange exchange, long limit, String setting) throws IOException {
        String declared = exchange.getRequestHeaders().getFirst("Content-Length");
        long length = declared == null ? -1 : parseLength(declared);
        if (length > limit) {
            tooLarge(exchange, String.valueOf(length), limit, setting);
            return null;
        }
        try (InputStream in = exchange.getRequestBody()) {
            byte[] body = in.readNBytes((int) Math.min(Integer.MAX_VALUE - 8, limit + 1));
            if (body.length > limit) {
                tooLarge(exchange, "more than " + limit, limit, setting);
                return null;
            }
            return body;
        }
    }

    private static long parseLength(String declared) {
        try {
            return Long.parseLong(declared.strip());
        } catch (NumberFormatException e) {
            return -1;   // the JDK's server has refused a malformed length before this
        }
    }

    /** @param actual the size as far as known: the declared length, or "more than" the limit of a chunked body */
    private void tooLarge(HttpExchange exchange, String actual, long limit, String setting) throws IOException {
        LOGGER.warn("Refused a webhook request of {} bytes from {}: the limit is {} bytes (WebhookServer.{}).",
                actual, exchange.getRemoteAddress(), limit, setting);
        exchange.getResponseHeaders().set("Connection", "close");
        respond(exchange, 413, "text/plain", text(413, "Maximum request body size " + limit
                + " exceeded, actual body size " + actual));
    }

    /** The first value of each header, as aiohttp's {@code dict(request.headers)} keeps one. */
    private static Map<String, String> headers(HttpExchange exchange) {
        Map<String, String> headers = new LinkedHashMap<>();
        for (Map.Entry<String, List<String>> header : exchange.getRequestHeaders().entrySet()) {
            if (!header.getValue().isEmpty()) {
                headers.put(header.getKey(), header.getValue().getFirst());
            }
        }
        return headers;
    }

    private static Map<String, Object> sslpeer(HttpExchange exchange) {
        if (!(exchange instanceof HttpsExchange https) || https.getSSLSession() == null) {
            return Map.of();
        }
        try {
            Certificate[] chain = https.getSSLSession().getPeerCertificates();
            return chain.length > 0 && chain[0] instanceof X509Certificate peer ? PeerCertificate.describe(peer) : Map.of();
        } catch (SSLPeerUnverifiedException e) {
            return Map.of();  // no client certificate: none asked for, or an optional one not sent
        }
    }

    /** aiohttp's text for HTTP errors: "400: the reason", or the status's own phrase without one. */
    private static byte[] text(int status, String reason) {
        String phrase = reason == null || reason.isEmpty() ? PHRASES.getOrDefault(status, "Error") : reason;
        return (status + ": " + phrase).getBytes(StandardCharsets.UTF_8);
    }

    private static void respond(HttpExchange exchange, int status, String contentType, byte[] body) throws IOException {
        exchange.getResponseHeaders().set("Content-Type", contentType + ("application/json".equals(contentType) ? "" : "; charset=utf-8"));
        exchange.sendResponseHeaders(status, body.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(body);
        }
    }
}
