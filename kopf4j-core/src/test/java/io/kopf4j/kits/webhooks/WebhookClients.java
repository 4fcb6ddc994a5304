package io.kopf4j.kits.webhooks;

import io.kopf4j.WebhookClientConfig;
import io.kopf4j.internal.pki.Pem;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.util.Base64;
import java.util.List;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/** The API server's side in tests: a JDK HTTP client that trusts the published CA bundle, with or without a certificate of its own. */
final class WebhookClients {
    private WebhookClients() {
    }

    static HttpClient trusting(WebhookClientConfig config) throws Exception {
        return withCertificate(config, null, null);
    }

    static HttpClient plain() {
        return HttpClient.newHttpClient();
    }

    static HttpClient withCertificate(WebhookClientConfig config, List<X509Certificate> chain, PrivateKey key) throws Exception {
        KeyStore trust = KeyStore.getInstance("PKCS12");
        trust.load(null, null);
        int index = 0;
        for (X509Certificate ca : Pem.certificates(new String(Base64.getDecoder().decode(config.caBundle()), StandardCharsets.US_ASCII))) {
            trust.setCertificateEntry("ca-" + index++, ca);
        }
        TrustManagerFactory trustManagers = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        trustManagers.init(trust);
        KeyManagerFactory keyManagers = null;
        if (chain != null) {
            KeyStore keys = KeyStore.getInstance("PKCS12");
            keys.load(null, null);
            keys.setKeyEntry("client", key, new char[0], chain.toArray(X509Certificate[]::new));
            keyManagers = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            keyManagers.init(keys, new char[0]);
        }
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(keyManagers == null ? null : keyManagers.getKeyManagers(), trustManagers.getTrustManagers(), null);
        return HttpClient.newBuilder().sslContext(context).build();
    }

    static HttpResponse<String> post(HttpClient client, String url, String body) throws Exception {
        return client.send(HttpRequest.newBuilder(URI.create(url))
                        .header("Content-Type", "application/json")
                        .header("X-Kopf4j-Test", "yes")
                        .POST(HttpRequest.BodyPublishers.ofString(body)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    static X509Certificate servedCertificate(HttpResponse<?> response) throws Exception {
        return (X509Certificate) response.sslSession().orElseThrow().getPeerCertificates()[0];
    }
}
