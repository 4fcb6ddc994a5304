package io.kopf4j.internal.clients;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.kopf4j.ConnectionInfo;
import io.kopf4j.OperatorSettings;
import io.kopf4j.internal.runtime.Versions;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * One connection to the API server: the parts of a credential that make a TLS connection (server,
 * CA, client certificate, proxy). Credentials that differ only in their token or password share
 * a connection, and the Authorization header is chosen per request ({@link AuthorizationInterceptor});
 * so rotating tokens never rebuild the HTTP client.
 */
public record Connection(String server, String caPath, String caData, boolean insecure, String certificatePath,
                         String certificateData, String privateKeyPath, String privateKeyData, String proxyUrl,
                         String defaultNamespace) {
    private static final Duration DEFAULT_CONNECT_TIMEOUT = Duration.ofSeconds(10);
    private static final String USER_AGENT = "kopf4j/" + Versions.kopf4j().orElse("unknown");
    private static final Pattern WHITESPACE = Pattern.compile("\\s+");

    /** The connection of the credentials, their {@code *Data} fields as base64-encoded PEM ({@link #base64Pem}). */
    public static Connection of(ConnectionInfo info) {
        return new Connection(info.server(), info.caPath(), base64Pem(info.caData()), info.insecure(),
                info.certificatePath(), base64Pem(info.certificateData()), info.privateKeyPath(),
                base64Pem(info.privateKeyData()), info.proxyUrl(), info.defaultNamespace());
    }

    /**
     * Kopf's {@code decode_to_pem} the other way round: fabric8 wants base64-encoded PEM, and Kopf
     * takes raw PEM too (text that starts with {@code -----BEGIN }), so raw PEM is encoded here;
     * base64 is kept, without the line breaks that {@code base64} wraps it in (Python's decoder
     * skips them, Java's does not). fabric8 alone would read raw PEM only through a fallback for
     * text that fails to decode, which is not its contract.
     *
     * @param data raw or base64-encoded PEM, or null
     * @return base64-encoded PEM, or null
     */
    static String base64Pem(String data) {
        if (data == null) {
            return null;
        }
        if (data.stripLeading().startsWith("-----BEGIN ")) {
            return Base64.getEncoder().encodeToString(data.getBytes(StandardCharsets.US_ASCII));
        }
        return WHITESPACE.matcher(data).replaceAll("");
    }

    /** True if requests with these credentials can go over this connection. */
    public boolean carries(ConnectionInfo info) {
        return equals(of(info));
    }

    /**
     * A client for this connection, authorizing each request with the vault's credentials.
     * fabric8's own retries are off: {@link ApiRetries} retries with the operator's settings.
     *
     * @param connectTimeout the TCP connect timeout; null: {@code networking.connectTimeout} or 10 s
     */
    public KubernetesClient client(Vault vault, OperatorSettings settings, Duration connectTimeout) {
        return build(vault, config(settings, connectTimeout, System.getenv()));
    }

    /**
     * A client for handlers' own requests: as {@link #client}, but with fabric8's retries set from
     * {@code networking.errorBackoffs}, because handlers call fabric8 directly, not through
     * {@link ApiRetries}: as many retries, the first after the first backoff, each next one twice
     * as late (fabric8's exponential backoff), on connection errors, HTTP 5xx and 429; a 401 is
     * handled by the re-login, as for the operator's own requests.
     */
    public KubernetesClient handlerClient(Vault vault, OperatorSettings settings) {
        return build(vault, handlerConfig(settings, System.getenv()));
    }

    /** {@link #config} with fabric8's retries set from {@code networking.errorBackoffs}. */
    Config handlerConfig(OperatorSettings settings, Map<String, String> environment) {
        Config config = config(settings, null, environment);
        List<Duration> backoffs = new ArrayList<>();
        settings.networking.errorBackoffs.forEach(backoffs::add);
        config.setRequestRetryBackoffLimit(backoffs.size());
        if (!backoffs.isEmpty()) {
            config.setRequestRetryBackoffInterval((int) backoffs.get(0).toMillis());
        }
        return config;
    }

    private KubernetesClient build(Vault vault, Config config) {
        AuthorizationInterceptor authorization = new AuthorizationInterceptor(vault, this);
        // HTTP/1.1: the JDK's HTTP/2 client fails requests beyond a connection's stream limit (250 on
        // the API server) instead of opening another connection, and every watch holds a stream.
        return new KubernetesClientBuilder().withConfig(config).withHttpClientFactory(new VirtualThreadHttpClientFactory())
                .withHttpClientBuilderConsumer(builder -> builder.preferHttp11()
                        .addOrReplaceInterceptor(AuthorizationInterceptor.NAME, authorization))
                .build();
    }

    /** fabric8's configuration of this connection, without credentials and without any lookup of its own. */
    Config config(OperatorSettings settings, Duration connectTimeout, Map<String, String> environment) {
        Duration connect = connectTimeout != null ? connectTimeout
                : settings.networking.connectTimeout != null ? settings.networking.connectTimeout : DEFAULT_CONNECT_TIMEOUT;
        ConfigBuilder builder = new ConfigBuilder(Config.empty())
                .withMasterUrl(server)
                .withCaCertFile(caPath)
                .withCaCertData(caData)
                .withTrustCerts(insecure)
                .withDisableHostnameVerification(insecure)
                .withClientCertFile(certificatePath)
                .withClientCertData(certificateData)
                .withClientKeyFile(privateKeyPath)
                .withClientKeyData(privateKeyData)
                .withNamespace(defaultNamespace)
                .withUserAgent(USER_AGENT)
                .withConnectionTimeout((int) connect.toMillis())
                .withRequestTimeout((int) settings.networking.requestTimeout.toMillis())
                .withRequestRetryBackoffLimit(0)
                .withWatchReconnectInterval((int) settings.watching.reconnectBackoff.toMillis());
        if (privateKeyPath != null || privateKeyData != null) {
            builder.withClientKeyAlgo(Config.getKeyAlgorithm(privateKeyPath, privateKeyData));
        }
        if (proxyUrl != null) {
            builder.withHttpProxy(proxyUrl).withHttpsProxy(proxyUrl);
        } else if (settings.networking.trustEnv) {
            builder.withHttpProxy(variable(environment, "HTTP_PROXY"))
                    .withHttpsProxy(variable(environment, "HTTPS_PROXY"));
            String noProxy = variable(environment, "NO_PROXY");
            if (noProxy != null) {
                builder.withNoProxy(noProxy.split("\\s*,\\s*"));
            }
        }
        return builder.build();
    }

    /** Proxy variables come in upper and lower case; curl's convention prefers the lower. */
    private static String variable(Map<String, String> environment, String name) {
        String lower = environment.get(name.toLowerCase(java.util.Locale.ROOT));
        return lower != null ? lower : environment.get(name);
    }
}
