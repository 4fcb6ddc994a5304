package io.kopf4j.kits.webhooks;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.kopf4j.WebhookClientConfig;
import io.kopf4j.WebhookFn;
import io.kopf4j.WebhookServing;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.function.Consumer;

/**
 * A local HTTPS endpoint for admission requests (Kopf's {@code WebhookServer}): the API server
 * must reach this machine at {@link #host} (or the listening address).
 *
 * <pre>{@code
 * settings.admission.server = new WebhookServer()
 *         .addr("0.0.0.0").port(9443).host("operator.example.com")
 *         .extraSans("my-operator.operators.svc");
 * // Or with certificates of its own (reloaded when the files change), verifying the API server:
 * settings.admission.server = new WebhookServer().port(9443)
 *         .certfile(Path.of("/certs/tls.crt")).pkeyfile(Path.of("/certs/tls.key"))
 *         .verifyCafile(Path.of("/certs/apiserver-ca.crt")).verifyMode(VerifyMode.REQUIRED);
 * }</pre>
 *
 * <p>Kubernetes calls webhooks over HTTPS only, so HTTPS is the default: without
 * {@link #certfile}/{@link #pkeyfile}, a CA and a serving certificate (common name: the host; also
 * valid for the listening address and {@link #extraSans}) are generated at start, and the CA goes
 * to the client config as its {@code caBundle}. Given files are re-read every
 * {@link #fileCheckInterval}: a change swaps the certificate in without closing the listener, and
 * the client config is published again. {@link #insecure} serves plain HTTP (for tunnels).
 *
 * <p>The server is the JDK's {@code com.sun.net.httpserver.HttpsServer} with a virtual thread per
 * request: no dependency, a few kilobytes idle; see docs/admission-servers.md.
 */
public class WebhookServer implements WebhookServing {
    /** The largest admission request read, 1 MiB: aiohttp's {@code client_max_size}, under which Kopf serves. */
    public static final long DEFAULT_MAX_REQUEST_SIZE = 1024 * 1024;
    /**
     * The largest conversion request read, 16 MiB: a page of a list (clients list 500 objects at a time),
     * parsed into several times its size in memory, at most two at a time.
     */
    public static final long DEFAULT_MAX_CONVERSION_REQUEST_SIZE = 16L * 1024 * 1024;

    private String addr;
    private Integer port;
    private String path;
    private String host;
    private String cadata;
    private Path cafile;
    private Path cadump;
    private boolean insecure;
    private Path certfile;
    private Path pkeyfile;
    private String password;
    private List<String> extraSans = List.of();
    private VerifyMode verifyMode;
    private Path verifyCafile;
    private String verifyCadata;
    private Duration fileCheckInterval = Duration.ofSeconds(60);
    private long maxRequestSize = DEFAULT_MAX_REQUEST_SIZE;
    private long maxConversionRequestSize = DEFAULT_MAX_CONVERSION_REQUEST_SIZE;
    private volatile WebhookListener listener;

    /** A server on all interfaces, a free port, HTTPS with a generated certificate. */
    public WebhookServer() {
    }

    /**
     * Where to listen.
     *
     * @param addr an address or host name; null (the default) for all interfaces
     * @return this server
     */
    public WebhookServer addr(String addr) {
        this.addr = addr;
        return this;
    }

    /**
     * The port to listen on.
     *
     * @param port the port; null or 0 (the default) for a free one
     * @return this server
     */
    public WebhookServer port(Integer port) {
        this.port = port == null || port == 0 ? null : port;
        return this;
    }

    /**
     * The port as set, for what is generated around the server (e.g. {@code kopf4j manifests}'
     * Service): {@code new WebhookServer().port(9443).port()} is 9443.
     *
     * @return the port, or null for a free one
     */
    public Integer port() {
        return port;
    }

    /**
     * The root path of the webhooks' URLs; each handler is at {@code {path}/{handler id}}.
     *
     * @param path the path, such as {@code "/hooks"}; null (the default) for none
     * @return this server
     */
    public WebhookServer path(String path) {
        this.path = path;
        return this;
    }

    /**
     * The host name in the published URL, and the generated certificate's common name.
     *
     * @param host the host name or IP address; null (the default) for the listening address
     *             ({@code localhost} for all interfaces)
     * @return this server
     * @throws IllegalArgumentException for a host that is neither, e.g. a URL or a host with a port
     */
    public WebhookServer host(String host) {
        if (host != null && !WebhookUrls.isHost(host)) {
            throw new IllegalArgumentException("host must be a host name or an IP address, without a scheme, port or path;"
                    + " got '" + host + "'");
        }
        this.host = host;
        return this;
    }

    /**
     * The host as set (not the default one chosen at start): {@code new WebhookServer().host("op.ops.svc").host()}.
     *
     * @return the host name, or null
     */
    public String host() {
        return host;
    }

    /**
     * The CA bundle to publish for the API server, when the certificate files are given.
     *
     * @param cadata PEM certificates
     * @return this server
     */
    public WebhookServer cadata(String cadata) {
        this.cadata = cadata;
        return this;
    }

    /**
     * The file of the CA bundle to publish (when {@link #cadata} is not given); watched for changes.
     *
     * @param cafile a PEM file
     * @return this server
     */
    public WebhookServer cafile(Path cafile) {
        this.cafile = cafile;
        return this;
    }

    /**
     * Where to write the published CA bundle (e.g. for {@code curl --cacert}).
     *
     * @param cadump a file to write
     * @return this server
     */
    public WebhookServer cadump(Path cadump) {
        this.cadump = cadump;
        return this;
    }

    /**
     * Plain HTTP instead of HTTPS: API servers refuse it; for tunnels and debugging only.
     *
     * @param insecure whether to serve HTTP
     * @return this server
     */
    public WebhookServer insecure(boolean insecure) {
        this.insecure = insecure;
        return this;
    }

    /**
     * The server's certificate (with its chain, PEM); with {@link #pkeyfile}. Watched for changes.
     *
     * @param certfile a PEM file
     * @return this server
     */
    public WebhookServer certfile(Path certfile) {
        this.certfile = certfile;
        return this;
    }

    /**
     * The server certificate's private key (PEM: PKCS#8 or OpenSSL's RSA/EC forms, encrypted or
     * not); with {@link #certfile}. Watched for changes.
     *
     * @param pkeyfile a PEM file
     * @return this server
     */
    public WebhookServer pkeyfile(Path pkeyfile) {
        this.pkeyfile = pkeyfile;
        return this;
    }

    /**
     * The password of an encrypted {@link #pkeyfile}.
     *
     * @param password the password
     * @return this server
     */
    public WebhookServer password(String password) {
        this.password = password;
        return this;
    }

    /**
     * More names (DNS names or IP addresses) for the generated certificate, such as the Service's
     * in-cluster name.
     *
     * @param names the names
     * @return this server
     */
    public WebhookServer extraSans(String... names) {
        this.extraSans = List.of(names);
        return this;
    }

    /**
     * Whether clients must present certificates; unset, they are optional when a verification CA
     * is given, else not asked for.
     *
     * @param verifyMode the mode
     * @return this server
     */
    public WebhookServer verifyMode(VerifyMode verifyMode) {
        this.verifyMode = verifyMode;
        return this;
    }

    /**
     * The CA that clients' certificates must be signed by.
     *
     * @param verifyCafile a PEM file
     * @return this server
     */
    public WebhookServer verifyCafile(Path verifyCafile) {
        this.verifyCafile = verifyCafile;
        return this;
    }

    /**
     * The CA that clients' certificates must be signed by, as PEM text.
     *
     * @param verifyCadata PEM certificates
     * @return this server
     */
    public WebhookServer verifyCadata(String verifyCadata) {
        this.verifyCadata = verifyCadata;
        return this;
    }

    /**
     * How often {@link #certfile}, {@link #pkeyfile} and {@link #cafile} are re-read for changes.
     *
     * @param fileCheckInterval the interval (60 seconds unless set)
     * @return this server
     */
    public WebhookServer fileCheckInterval(Duration fileCheckInterval) {
        this.fileCheckInterval = fileCheckInterval;
        return this;
    }

    /**
     * The largest request body read: a larger one is answered {@code 413} before it is read (from its
     * {@code Content-Length}), or as soon as that much has come (a chunked one), so that no request,
     * authenticated or not, can fill the operator's memory. An AdmissionReview carries the object
     * twice (old and new), and the API server stores objects of 1.5 MB at most.
     *
     * @param maxRequestSize bytes, 1 MiB ({@link #DEFAULT_MAX_REQUEST_SIZE}) unless set; positive
     * @return this server
     * @throws IllegalArgumentException for a size that is not positive
     */
    public WebhookServer maxRequestSize(long maxRequestSize) {
        if (maxRequestSize <= 0) {
            throw new IllegalArgumentException("maxRequestSize must be positive, got " + maxRequestSize);
        }
        this.maxRequestSize = maxRequestSize;
        return this;
    }

    /**
     * The largest body of a conversion request ({@code {path}/convert/...}): the API server sends a
     * whole list of objects in one ConversionReview (a {@code kubectl get} of every object of a kind
     * stored in another version), so this limit is larger than {@link #maxRequestSize}'s. Two are
     * read at a time at most; a third waits, up to the API server's timeout, then gets 503.
     *
     * @param maxConversionRequestSize bytes, 16 MiB ({@link #DEFAULT_MAX_CONVERSION_REQUEST_SIZE}) unless set; positive
     * @return this server
     * @throws IllegalArgumentException for a size that is not positive
     */
    public WebhookServer maxConversionRequestSize(long maxConversionRequestSize) {
        if (maxConversionRequestSize <= 0) {
            throw new IllegalArgumentException("maxConversionRequestSize must be positive, got " + maxConversionRequestSize);
        }
        this.maxConversionRequestSize = maxConversionRequestSize;
        return this;
    }

    /**
     * The host name used when {@link #host} is not set (Kopf's {@code DEFAULT_HOST}): none here;
     * the servers for local clusters name the host through which the cluster reaches this machine.
     *
     * @param client the operator's client
     * @return the host name, or null for the listening address
     */
    protected String defaultHost(KubernetesClient client) {
        return null;
    }

    @Override
    public void start(KubernetesClient client, WebhookFn requests, Consumer<WebhookClientConfig> configs) throws IOException {
        if (listener != null) {
            throw new IllegalStateException("the webhook server is already started");
        }
        listener = WebhookListener.start(options(host != null ? host : defaultHost(client)), requests, configs);
    }

    private ServerOptions options(String effectiveHost) {
        return new ServerOptions(addr, port, path, effectiveHost, cadata, cafile, cadump, insecure, certfile, pkeyfile,
                password, extraSans, new ClientVerification(verifyMode, verifyCafile, verifyCadata), fileCheckInterval,
                maxRequestSize, maxConversionRequestSize);
    }

    @Override
    public boolean ready() {
        WebhookListener running = listener;
        return running != null && running.ready();
    }

    @Override
    public void close() {
        WebhookListener running = listener;
        if (running != null) {
            running.close();
        }
    }
}
