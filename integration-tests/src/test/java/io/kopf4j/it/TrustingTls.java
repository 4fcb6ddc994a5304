package io.kopf4j.it;

import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509TrustManager;

/**
 * A TLS client context that trusts any server certificate: for tests of the operator's own servers
 * (their generated, self-signed certificates), as a scraper with {@code insecureSkipVerify} does. What
 * these tests try is the server, not TLS.
 *
 * <pre>{@code
 * HttpClient client = HttpClient.newBuilder().sslContext(TrustingTls.context()).build();
 * }</pre>
 */
final class TrustingTls {
    private TrustingTls() {
    }

    static SSLContext context() {
        try {
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(null, new TrustManager[]{new TrustingAll()}, new SecureRandom());
            return context;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("no TLS in this JDK", e);
        }
    }

    private static final class TrustingAll implements X509TrustManager {
        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType) {
        }

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType) {
        }

        @Override
        public X509Certificate[] getAcceptedIssuers() {
            return new X509Certificate[0];
        }
    }
}
