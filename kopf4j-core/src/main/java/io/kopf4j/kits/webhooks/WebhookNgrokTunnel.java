package io.kopf4j.kits.webhooks;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.kopf4j.WebhookClientConfig;
import io.kopf4j.WebhookFn;
import io.kopf4j.WebhookServing;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Admission requests through an ngrok tunnel (Kopf's {@code WebhookNgrokTunnel}): a local plain
 * HTTP {@link WebhookServer} behind a public HTTPS URL of ngrok's, for clusters that cannot reach
 * this machine. Needs the ngrok agent installed locally (https://ngrok.com/download), on the
 * {@code PATH} or at {@link #binary}; kopf4j downloads nothing.
 *
 * <pre>{@code
 * settings.admission.server = new WebhookNgrokTunnel().path("/xyz").token(System.getenv("NGROK_TOKEN"));
 * }</pre>
 *
 * <p>No CA bundle is published: ngrok's certificates are trusted by the API server as they are.
 * Mind that the URL is public and unauthenticated: anyone who learns it can send requests to the
 * operator. For development only.
 */
public class WebhookNgrokTunnel implements WebhookServing {
    private static final Logger LOGGER = LoggerFactory.getLogger(WebhookNgrokTunnel.class);

    /** The local endpoint: plain HTTP, as ngrok's free plan forwards only that; ngrok adds the TLS. */
    private final WebhookServer local = new WebhookServer().insecure(true);
    private String path;
    private String token;
    private String region;
    private Path binary;
    private Duration startupTimeout = Duration.ofSeconds(30);
    private volatile boolean started;
    private volatile NgrokAgent agent;

    /** A tunnel to a local server on all interfaces and a free port. */
    public WebhookNgrokTunnel() {
    }

    /**
     * Where the local server listens, as {@link WebhookServer#addr}.
     *
     * @param addr an address, or null (the default) for all interfaces
     * @return this tunnel
     */
    public WebhookNgrokTunnel addr(String addr) {
        local.addr(addr);
        return this;
    }

    /**
     * The local server's port, as {@link WebhookServer#port}.
     *
     * @param port the port, or null (the default) for a free one
     * @return this tunnel
     */
    public WebhookNgrokTunnel port(Integer port) {
        local.port(port);
        return this;
    }

    /**
     * The root path, locally and in the public URL: a random one adds a little obscurity.
     *
     * @param path the path, or null (the default) for none
     * @return this tunnel
     */
    public WebhookNgrokTunnel path(String path) {
        local.path(path);
        this.path = path;
        return this;
    }

    /**
     * The ngrok auth token (passed in the agent's environment).
     *
     * @param token the token, or null (the default) for the agent's own configuration
     * @return this tunnel
     */
    public WebhookNgrokTunnel token(String token) {
        this.token = token;
        return this;
    }

    /**
     * The ngrok region.
     *
     * @param region such as {@code "eu"}, or null (the default) for the agent's default
     * @return this tunnel
     */
    public WebhookNgrokTunnel region(String region) {
        this.region = region;
        return this;
    }

    /**
     * The ngrok agent's executable.
     *
     * @param binary the executable, or null (the default) for {@code ngrok} on the {@code PATH}
     * @return this tunnel
     */
    public WebhookNgrokTunnel binary(Path binary) {
        this.binary = binary;
        return this;
    }

    /**
     * How long to wait for the agent to open its tunnel.
     *
     * @param startupTimeout the timeout (30 seconds unless set)
     * @return this tunnel
     */
    public WebhookNgrokTunnel startupTimeout(Duration startupTimeout) {
        this.startupTimeout = startupTimeout;
        return this;
    }

    @Override
    public void start(KubernetesClient client, WebhookFn requests, Consumer<WebhookClientConfig> configs) throws IOException {
        if (started) {
            throw new IllegalStateException("the ngrok tunnel is already started");
        }
        Path executable = NgrokAgent.locate(binary, System.getenv("PATH"));
        URI[] localUrl = new URI[1];
        local.start(client, requests, config -> localUrl[0] = URI.create(config.url()));
        started = true;
        // ngrok forwards to localhost unless told a host: the listening address when one is set.
        String upstream = localUrl[0].getHost().equals("localhost") ? String.valueOf(localUrl[0].getPort())
                : localUrl[0].getHost() + ":" + localUrl[0].getPort();
        try {
            agent = NgrokAgent.start(executable, upstream, token, region, startupTimeout);
        } catch (IOException | RuntimeException e) {
            local.close();
            throw e;
        }
        String url = agent.publicUrl() + (path == null ? "" : path);
        LOGGER.debug("Accessing the webhooks at {}", url);
        configs.accept(WebhookClientConfig.url(url, null));
    }

    /** {@return the local server}, which a {@link WebhookAutoTunnel} may serve with directly */
    WebhookServer localServer() {
        return local;
    }

    @Override
    public boolean ready() {
        NgrokAgent running = agent;
        return local.ready() && running != null && running.alive();
    }

    @Override
    public void close() {
        NgrokAgent running = agent;
        if (running != null) {
            running.close();
        }
        local.close();
    }
}
