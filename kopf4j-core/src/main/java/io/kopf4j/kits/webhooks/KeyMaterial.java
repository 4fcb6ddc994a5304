package io.kopf4j.kits.webhooks;

import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.util.List;

/**
 * What a TLS server presents: its certificate chain (its own certificate first) and its key.
 *
 * <pre>{@code
 * new KeyMaterial(List.of(certificate, ca), privateKey)
 * }</pre>
 *
 * @param chain the certificates, the server's first
 * @param key the server certificate's private key
 */
record KeyMaterial(List<X509Certificate> chain, PrivateKey key) {
    KeyMaterial {
        chain = List.copyOf(chain);
        if (chain.isEmpty()) {
            throw new IllegalArgumentException("no certificate in the server's certificate file");
        }
    }

    X509Certificate certificate() {
        return chain.getFirst();
    }
}
