package io.kopf4j.internal.pki;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.StringReader;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.PrivateKey;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.util.List;
import org.bouncycastle.asn1.pkcs.PrivateKeyInfo;
import org.bouncycastle.jce.provider.BouncyCastleProvider;
import org.bouncycastle.openssl.PEMEncryptedKeyPair;
import org.bouncycastle.openssl.PEMKeyPair;
import org.bouncycastle.openssl.PEMParser;
import org.bouncycastle.openssl.jcajce.JcaPEMKeyConverter;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.openssl.jcajce.JcaPKCS8Generator;
import org.bouncycastle.openssl.jcajce.JceOpenSSLPKCS8DecryptorProviderBuilder;
import org.bouncycastle.openssl.jcajce.JcePEMDecryptorProviderBuilder;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.pkcs.PKCS8EncryptedPrivateKeyInfo;
import org.bouncycastle.pkcs.PKCSException;

/**
 * PEM texts, as OpenSSL, Go and Python's {@code ssl} write them: certificates, and private keys in
 * every form they come in (PKCS#8, OpenSSL's traditional RSA/EC forms, either encrypted with a
 * password). BouncyCastle reads them; the JDK reads only unencrypted PKCS#8 and no PEM at all.
 *
 * <pre>{@code
 * String pem = Pem.encode(certificate) + Pem.encode(privateKey);
 * List<X509Certificate> chain = Pem.certificates(pem);
 * PrivateKey key = Pem.privateKey(pem, null);
 * }</pre>
 */
public final class Pem {
    /** Not registered globally: only the decryption of keys needs BouncyCastle's ciphers (PKCS7Padding, PBKDF2 variants). */
    private static final BouncyCastleProvider PROVIDER = new BouncyCastleProvider();

    private Pem() {
    }

    /**
     * Encodes a certificate, a public key, or a private key (as unencrypted PKCS#8, "PRIVATE KEY",
     * which Go, kubectl and fabric8 all read).
     *
     * @param object the certificate or key
     * @return the PEM text, ending with a newline
     */
    public static String encode(Object object) {
        StringWriter text = new StringWriter();
        try (JcaPEMWriter writer = new JcaPEMWriter(text)) {
            writer.writeObject(object instanceof PrivateKey key ? new JcaPKCS8Generator(key, null).generate() : object);
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot encode " + object.getClass().getSimpleName() + " as PEM", e);
        }
        return text.toString();
    }

    /**
     * Reads every certificate of a PEM text, in order.
     *
     * @param pem the text
     * @return the certificates; empty when it has none
     * @throws GeneralSecurityException when a certificate is malformed
     */
    public static List<X509Certificate> certificates(String pem) throws GeneralSecurityException {
        return CertificateFactory.getInstance("X.509")
                .generateCertificates(new ByteArrayInputStream(pem.getBytes(StandardCharsets.US_ASCII))).stream()
                .map(X509Certificate.class::cast)
                .toList();
    }

    /**
     * Reads the first private key of a PEM text.
     *
     * @param pem the text
     * @param password the key's password when it is encrypted, else null
     * @return the key
     * @throws GeneralSecurityException when there is no key, or it cannot be decrypted
     */
    public static PrivateKey privateKey(String pem, char[] password) throws GeneralSecurityException {
        JcaPEMKeyConverter converter = new JcaPEMKeyConverter();
        try (PEMParser parser = new PEMParser(new StringReader(pem))) {
            for (Object object = parser.readObject(); object != null; object = parser.readObject()) {
                switch (object) {
                    case PrivateKeyInfo info -> {
                        return converter.getPrivateKey(info);
                    }
                    case PEMKeyPair pair -> {
                        return converter.getKeyPair(pair).getPrivate();
                    }
                    case PKCS8EncryptedPrivateKeyInfo encrypted -> {
                        return converter.getPrivateKey(encrypted.decryptPrivateKeyInfo(
                                new JceOpenSSLPKCS8DecryptorProviderBuilder().setProvider(PROVIDER).build(needed(password))));
                    }
                    case PEMEncryptedKeyPair encrypted -> {
                        return converter.getKeyPair(encrypted.decryptKeyPair(
                                new JcePEMDecryptorProviderBuilder().setProvider(PROVIDER).build(needed(password)))).getPrivate();
                    }
                    default -> {
                        // A certificate or parameters beside the key: not what is looked for.
                    }
                }
            }
        } catch (IOException | OperatorCreationException | PKCSException e) {
            throw new GeneralSecurityException("cannot read the private key: " + e.getMessage(), e);
        }
        throw new GeneralSecurityException("no private key in the PEM text");
    }

    private static char[] needed(char[] password) throws GeneralSecurityException {
        if (password == null) {
            throw new GeneralSecurityException("the private key is encrypted, but no password is given");
        }
        return password;
    }
}
