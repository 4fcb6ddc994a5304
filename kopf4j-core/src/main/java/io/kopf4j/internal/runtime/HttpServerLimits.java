package io.kopf4j.internal.runtime;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The limits of the JDK's HTTP server ({@code com.sun.net.httpserver}), which kopf4j's probes, metrics
 * and webhook servers run on: a client gets 10 seconds to send its request (the TLS handshake, the
 * headers and the body), a connection that sends nothing is closed within that time too (held-open
 * connections cost a file descriptor each), an answer has 60 seconds to be read (a handler's run
 * included: an admission handler has the API server's 30 seconds at most), an idle kept-alive
 * connection 30 seconds, and a server takes at most 1,000 connections at once.
 *
 * <p>The JDK reads these from system properties once, when its first server starts, and only
 * there: so they are set here, before kopf4j's first server, and only where the application has not
 * set them itself ({@code -Dsun.net.httpserver.maxReqTime=...} wins). An application that started
 * a JDK server of its own before the operator keeps the JDK's defaults (no request time limit) for all.
 *
 * <pre>{@code
 * HttpServerLimits.apply();
 * HttpServer server = HttpServer.create(address, 0);
 * }</pre>
 */
public final class HttpServerLimits {
    /** Seconds for a request to arrive in full; also how long a new connection may stay silent. */
    public static final int REQUEST_SECONDS = 10;
    /** Seconds for an answer to be made and read. */
    public static final int RESPONSE_SECONDS = 60;
    /** Connections at once per server; more are closed as they come. */
    public static final int MAX_CONNECTIONS = 1000;

    private static final Map<String, String> DEFAULTS = new LinkedHashMap<>();

    static {
        DEFAULTS.put("sun.net.httpserver.maxReqTime", String.valueOf(REQUEST_SECONDS));
        DEFAULTS.put("sun.net.httpserver.maxRspTime", String.valueOf(RESPONSE_SECONDS));
        DEFAULTS.put("sun.net.httpserver.idleInterval", "30");
        // The idle timer's period: silent new connections are closed within a second of their time, not ten.
        DEFAULTS.put("sun.net.httpserver.clockTick", "1000");
        DEFAULTS.put("jdk.httpserver.maxConnections", String.valueOf(MAX_CONNECTIONS));
    }

    private HttpServerLimits() {
    }

    /** Sets the limits that the application has not set; call before creating a server. Idempotent. */
    public static synchronized void apply() {
        DEFAULTS.forEach((property, value) -> {
            if (System.getProperty(property) == null) {
                System.setProperty(property, value);
            }
        });
    }
}
