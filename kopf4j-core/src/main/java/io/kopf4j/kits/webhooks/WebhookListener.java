package io.kopf4j.kits.webhooks;

import com.sun.net.httpserver.HttpServer;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsParameters;
import com.sun.net.httpserver.HttpsServer;
import io.kopf4j.WebhookClientConfig;
import io.kopf4j.WebhookFn;
import io.kopf4j.internal.pki.FileWatch;
import io.kopf4j.internal.pki.Pem;
import io.kopf4j.internal.pki.ReloadingKeyManager;
import io.kopf4j.internal.runtime.HttpServerLimits;
import java.io.IOException;
import java.net.BindException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import java.util.Base64;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Consumer;
import javax.net.ssl.KeyManager;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A running webhook server: listens, serves admission requests, publishes its client config, and
 * swaps in renewed certificate files while it keeps listening.
 *
 * <p>It runs on the JDK's {@code com.sun.net.httpserver} ({@link HttpsServer}), with one virtual
 * thread per exchange. Why not an embedded server (Jetty, Netty, Undertow): admission traffic is a
 * few requests per second from one or a few API servers over kept-alive connections, which the
 * JDK's server handles in well under a millisecond of its own time; it adds no dependency (the
 * module already uses it for the probes) and no thread pool to size, and it idles at a selector
 * thread and a few kilobytes, where an embedded server brings megabytes of jars and its own pools.
 * It buffers the response's headers with its body (8 KB), so a usual AdmissionReview leaves in one
 * TCP segment and Nagle's algorithm has nothing to hold back.
 *
 * <pre>{@code
 * WebhookListener listener = WebhookListener.start(options, requests, configs);
 * listener.ready();   // true: listening, certificate loaded
 * listener.close();
 * }</pre>
 */
final class WebhookListener implements AutoCloseable {
    private static final Logger LOGGER = LoggerFactory.getLogger(WebhookListener.class);

    private final ServerOptions options;
    private final Consumer<WebhookClientConfig> configs;
    private final HttpServer server;
    private final ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor();
    private final ReloadingKeyManager keys;
    private final FileWatch watch;
    private final String url;
    private volatile boolean listening;

    private WebhookListener(ServerOptions options, WebhookFn requests, Consumer<WebhookClientConfig> configs)
            throws IOException, GeneralSecurityException {
        this.options = options;
        this.configs = configs;
        ServerCertificates.Loaded loaded = ServerCertificates.load(options);
        InetSocketAddress address = options.addr() == null
                ? new InetSocketAddress(portOrFree())
                : new InetSocketAddress(options.addr(), portOrFree());
        keys = loaded.material() == null ? null : new ReloadingKeyManager(loaded.material());
        watch = keys == null || options.watchedFiles().isEmpty() ? null
                : FileWatch.start(options.watchedFiles(), options.fileCheckInterval(), this::reload);
        try {
            server = bind(address, keys, options.verification());
        } catch (IOException | GeneralSecurityException | RuntimeException e) {
            stopThreads();
            throw e;
        }
        server.setExecutor(executor);
        server.createContext("/", new AdmissionExchange(options.rootPath(), options.maxRequestSize(),
                options.maxConversionRequestSize(), requests));
        String scheme = keys == null ? "http" : "https";
        String host = options.host() != null ? options.host() : WebhookUrls.accessibleAddr(options.addr());
        String path = options.path() == null ? "" : options.path();
        int port = server.getAddress().getPort();
        url = WebhookUrls.build(scheme, host, port, path);
        server.start();
        listening = true;
        LOGGER.debug("Listening for webhooks at {}", WebhookUrls.build(scheme, options.addr() == null ? "*" : options.addr(), port, path));
        LOGGER.debug("Accessing the webhooks at {}", url);
        try {
            configs.accept(clientConfig(loaded.caBundle()));
        } catch (RuntimeException e) {
            close();
            throw e;
        }
    }

    /**
     * Starts listening and publishes the client config once.
     *
     * @param options the server's options
     * @param requests the admission engine
     * @param configs told the client config now and after each certificate renewal
     * @return the running server
     * @throws IOException when it cannot listen or read the certificate files
     */
    public static WebhookListener start(ServerOptions options, WebhookFn requests, Consumer<WebhookClientConfig> configs)
            throws IOException {
        try {
            return new WebhookListener(options, requests, configs);
        } catch (GeneralSecurityException e) {
            throw new IOException("cannot set up the webhook server's TLS: " + e.getMessage(), e);
        }
    }

    /** {@return whether it listens with its certificate loaded} */
    public boolean ready() {
        return listening;
    }

    private int portOrFree() {
        return options.port() == null ? 0 : options.port();
    }

    private WebhookClientConfig clientConfig(String caBundle) {
        return WebhookClientConfig.url(url, caBundle == null ? null
                : Base64.getEncoder().encodeToString(caBundle.getBytes(StandardCharsets.UTF_8)));
    }

    /** Loads the renewed files; on a failure (a pair of files half-replaced) keeps the old ones, retried on the next check. */
    private boolean reload() {
        if (!listening) {
            return false;  // not yet started (the change is reported again), or closed (the watch ends)
        }
        try {
            ServerCertificates.Loaded loaded = ServerCertificates.load(options);
            keys.use(loaded.material());
            LOGGER.debug("Serving with the renewed SSL certificate files.");
            configs.accept(clientConfig(loaded.caBundle()));
            return true;
        } catch (IOException | GeneralSecurityException | RuntimeException e) {
            LOGGER.warn("Cannot load the renewed SSL certificate files, serving with the old ones: {}", e.getMessage());
            return false;
        }
    }

    private static HttpServer bind(InetSocketAddress address, ReloadingKeyManager keys, ClientVerification verification)
            throws IOException, GeneralSecurityException {
        HttpServerLimits.apply();
        try {
            if (keys == null) {
                return HttpServer.create(address, 0);
            }
            HttpsServer https = HttpsServer.create(address, 0);
            https.setHttpsConfigurator(new Configurator(sslContext(keys, verification), verification));
            return https;
        } catch (BindException e) {
            throw new BindException("Cannot listen for webhooks at " + address + ": " + e.getMessage());
        }
    }

    private static SSLContext sslContext(KeyManager keys, ClientVerification verification)
            throws IOException, GeneralSecurityException {
        TrustManager[] trust = null;
        if (verification.verifies()) {
            LOGGER.debug("Loading a CA for client certificate verification.");
            KeyStore store = KeyStore.getInstance("PKCS12");
            store.load(null, null);
            String pem = (verification.cafile() == null ? "" : Files.readString(verification.cafile()))
                    + (verification.cadata() == null ? "" : "\n" + verification.cadata());
            int index = 0;
            for (X509Certificate ca : Pem.certificates(pem)) {
                store.setCertificateEntry("client-ca-" + index++, ca);
            }
            TrustManagerFactory factory = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            factory.init(store);
            trust = factory.getTrustManagers();
        }
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(new KeyManager[]{keys}, trust, null);
        return context;
    }

    /** Asks each connecting client for its certificate as the verification mode says. */
    private static final class Configurator extends HttpsConfigurator {
        private final ClientVerification verification;

        Configurator(SSLContext context, ClientVerification verification) {
            super(context);
            this.verification = verification;
        }

        @Override
        public void configure(HttpsParameters params) {
            SSLParameters parameters = getSSLContext().getDefaultSSLParameters();
            switch (verification.effectiveMode()) {
                case REQUIRED -> parameters.setNeedClientAuth(true);
                case OPTIONAL -> parameters.setWantClientAuth(true);
                case NONE -> {
                    // No certificate request in the handshake.
                }
            }
            params.setSSLParameters(parameters);
        }
    }

    private void stopThreads() {
        if (watch != null) {
            watch.close();
        }
        executor.shutdown();
    }

    /** Stops listening at once (in-flight requests are cut: the API server retries or fails them by its policy). */
    @Override
    public void close() {
        listening = false;
        stopThreads();
        server.stop(0);
    }
}
