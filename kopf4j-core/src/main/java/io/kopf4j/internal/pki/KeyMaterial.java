package io.kopf4j.internal.pki;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.PrivateKey;
import java.security.Signature;
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
public record KeyMaterial(List<X509Certificate> chain, PrivateKey key) {
    /** Refuses a key that is not the certificate's, as while a renewal has replaced one file of the two. */
    public KeyMaterial {
        chain = List.copyOf(chain);
        if (chain.isEmpty()) {
            throw new IllegalArgumentException("no certificate in the server's certificate file");
        }
        if (!matches(chain.getFirst(), key)) {
            throw new IllegalArgumentException("the private key does not belong to the server's certificate "
                    + chain.getFirst().getSubjectX500Principal());
        }
    }

    /** Signs a probe with the key and checks it with the certificate: the one way that works for every key type. */
    private static boolean matches(X509Certificate certificate, PrivateKey key) {
        String algorithm = "EC".equals(key.getAlgorithm()) ? "SHA256withECDSA" : "SHA256with" + key.getAlgorithm();
        byte[] probe = "kopf4j".getBytes(StandardCharsets.US_ASCII);
        try {
            Signature signer = Signature.getInstance(algorithm);
            signer.initSign(key);
            signer.update(probe);
            byte[] signature = signer.sign();
            Signature verifier = Signature.getInstance(algorithm);
            verifier.initVerify(certificate.getPublicKey());
            verifier.update(probe);
            return verifier.verify(signature);
        } catch (GeneralSecurityException e) {
            return false;
        }
    }
}
