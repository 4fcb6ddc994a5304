package io.kopf4j.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.spec.PKCS8EncodedKeySpec;
import java.time.Duration;
import java.util.Base64;
import java.util.concurrent.Semaphore;
import java.util.stream.Stream;
import javax.net.ssl.KeyManager;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * The floor operator's access to the API server: the JDK's HttpClient over HTTP/1.1, with the
 * credentials of a kubeconfig's current context, and at most {@value #MAX_WRITES_IN_FLIGHT} writes
 * in flight (kopf4j's default {@code settings.networking.maxConcurrentRequests}, so that both
 * operators queue alike). Written by hand on purpose: the floor measures what the API traffic
 * itself costs, without any client library's machinery.
 *
 * <pre>{@code
 * FloorApi api = FloorApi.fromKubeconfig(Path.of("kubeconfig"));
 * JsonNode page = api.get("/apis/kopf.dev/v1/namespaces/bench/kopfexamples?limit=500");
 * }</pre>
 */
final class FloorApi {
    static final String JSON_PATCH = "application/json-patch+json";
    static final String MERGE_PATCH = "application/merge-patch+json";
    private static final int MAX_WRITES_IN_FLIGHT = 64;
    private static final int MAX_ATTEMPTS = 10;
    private static final Duration RETRY_DELAY = Duration.ofSeconds(1);
    private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(60);
    private static final ObjectMapper JSON = new ObjectMapper();

    private final HttpClient http;
    private final String server;
    private final String authorization;
    private final Semaphore writesInFlight = new Semaphore(MAX_WRITES_IN_FLIGHT);

    private FloorApi(HttpClient http, String server, String authorization) {
        this.http = http;
        this.server = server;
        this.authorization = authorization;
    }

    /**
     * The current context's server and credentials: a client certificate (PKCS#8 RSA key, as
     * LocalCluster writes) or a bearer token, and the cluster's CA as the only trusted one.
     */
    static FloorApi fromKubeconfig(Path file) throws IOException, GeneralSecurityException {
        JsonNode config = new YAMLMapper().readTree(file.toFile());
        JsonNode context = named(config.path("contexts"), config.path("current-context").asText()).path("context");
        JsonNode cluster = named(config.path("clusters"), context.path("cluster").asText()).path("cluster");
        JsonNode user = named(config.path("users"), context.path("user").asText()).path("user");
        HttpClient http = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .sslContext(sslContext(cluster, user))
                .connectTimeout(Duration.ofSeconds(10))
                .build();
        String token = user.path("token").asText(null);
        return new FloorApi(http, cluster.path("server").asText(), token == null ? null : "Bearer " + token);
    }

    /** A GET of a path (with its query), as JSON. */
    JsonNode get(String path) throws IOException, InterruptedException {
        HttpResponse<String> response = send(request(path).GET().timeout(REQUEST_TIMEOUT).build(), HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 200) {
            throw new IOException("GET " + path + ": " + response.statusCode() + " " + response.body());
        }
        return JSON.readTree(response.body());
    }

    /** A watch's events, one JSON document per line, until the server ends the watch. */
    Stream<String> watch(String path) throws IOException, InterruptedException {
        HttpResponse<Stream<String>> response = http.send(request(path).GET().build(), HttpResponse.BodyHandlers.ofLines());
        if (response.statusCode() != 200) {
            response.body().close();
            throw new IOException("WATCH " + path + ": " + response.statusCode());
        }
        return response.body();
    }

    /**
     * A PATCH, retried on connection errors, 429 and 5xx. False when the server refuses it as out
     * of date (a failed {@code test}: 422; a conflict: 409) or the object is gone (404): the caller
     * acts on the next event instead.
     */
    boolean patch(String path, String contentType, Object patch) throws InterruptedException {
        HttpRequest request = request(path).header("Content-Type", contentType).timeout(REQUEST_TIMEOUT)
                .method("PATCH", HttpRequest.BodyPublishers.ofByteArray(json(patch))).build();
        writesInFlight.acquire();
        try {
            HttpResponse<String> response = send(request, HttpResponse.BodyHandlers.ofString());
            int status = response.statusCode();
            if (status / 100 == 2) {
                return true;
            }
            if (status != 404 && status != 409 && status != 422) {
                System.err.println("floor: PATCH " + path + " failed: " + status + " " + response.body());
            }
            return false;
        } catch (IOException e) {
            System.err.println("floor: PATCH " + path + " failed: " + e);
            return false;
        } finally {
            writesInFlight.release();
        }
    }

    private <T> HttpResponse<T> send(HttpRequest request, HttpResponse.BodyHandler<T> body) throws IOException, InterruptedException {
        for (int attempt = 1; ; attempt++) {
            try {
                HttpResponse<T> response = http.send(request, body);
                if ((response.statusCode() != 429 && response.statusCode() < 500) || attempt == MAX_ATTEMPTS) {
                    return response;
                }
            } catch (IOException e) {
                if (attempt == MAX_ATTEMPTS) {
                    throw e;
                }
            }
            Thread.sleep(RETRY_DELAY);
        }
    }

    private HttpRequest.Builder request(String path) {
        HttpRequest.Builder builder = HttpRequest.newBuilder(URI.create(server + path)).header("Accept", "application/json");
        return authorization == null ? builder : builder.header("Authorization", authorization);
    }

    private static byte[] json(Object value) {
        try {
            return JSON.writeValueAsBytes(value);
        } catch (IOException e) {
            throw new IllegalArgumentException("not serializable as JSON: " + value, e);
        }
    }

    private static JsonNode named(JsonNode list, String name) {
        for (JsonNode item : list) {
            if (name.equals(item.path("name").asText())) {
                return item;
            }
        }
        throw new IllegalArgumentException("the kubeconfig has no entry named '" + name + "'");
    }

    private static SSLContext sslContext(JsonNode cluster, JsonNode user) throws IOException, GeneralSecurityException {
        KeyStore trusted = KeyStore.getInstance("PKCS12");
        trusted.load(null, null);
        trusted.setCertificateEntry("ca", certificate(cluster.path("certificate-authority-data").asText()));
        TrustManagerFactory trustManagers = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        trustManagers.init(trusted);
        KeyManager[] keyManagers = null;
        if (user.has("client-certificate-data")) {
            char[] noPassword = new char[0];
            KeyStore keys = KeyStore.getInstance("PKCS12");
            keys.load(null, null);
            keys.setKeyEntry("client", privateKey(user.path("client-key-data").asText()), noPassword,
                    new Certificate[]{certificate(user.path("client-certificate-data").asText())});
            KeyManagerFactory factory = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            factory.init(keys, noPassword);
            keyManagers = factory.getKeyManagers();
        }
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(keyManagers, trustManagers.getTrustManagers(), null);
        return context;
    }

    private static Certificate certificate(String base64Pem) throws GeneralSecurityException {
        return CertificateFactory.getInstance("X.509").generateCertificate(new ByteArrayInputStream(Base64.getDecoder().decode(base64Pem)));
    }

    private static PrivateKey privateKey(String base64Pem) throws GeneralSecurityException {
        String pem = new String(Base64.getDecoder().decode(base64Pem), StandardCharsets.US_ASCII);
        String body = pem.replaceAll("-----[A-Z ]+-----", "");
        return KeyFactory.getInstance("RSA").generatePrivate(new PKCS8EncodedKeySpec(Base64.getMimeDecoder().decode(body)));
    }
}
