package io.kopf4j.testing;

import io.kopf4j.kits.pki.CertificateBuilder;
import io.kopf4j.kits.pki.Pem;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyStore;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.util.Base64;
import java.util.List;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * The certificates of a throw-away cluster, made with kopf4j's {@link CertificateBuilder}: a CA,
 * the API server's serving certificate (for 127.0.0.1 and localhost), an admin client certificate
 * in {@code system:masters}, and the service-account signing key. Written as PEM under {@code dir}.
 */
final class Pki {
    private static final SecureRandom RANDOM = new SecureRandom();

    final Path caCert;
    final Path serverCert;
    final Path serverKey;
    final Path adminCert;
    final Path adminKey;
    final Path serviceAccountKey;
    final Path serviceAccountPublicKey;
    private final X509Certificate ca;
    private final KeyPair caKeys;
    private final X509Certificate admin;
    private final KeyPair adminKeys;

    Pki(Path dir) throws IOException, GeneralSecurityException {
        Files.createDirectories(dir);
        caKeys = CertificateBuilder.rsaKeys();
        ca = new CertificateBuilder("CN=kopf4j-local-ca", caKeys.getPublic()).ca().selfSigned(caKeys.getPrivate());
        KeyPair serverKeys = CertificateBuilder.rsaKeys();
        X509Certificate server = new CertificateBuilder("CN=kube-apiserver", serverKeys.getPublic()).serverAuth()
                .sans(List.of("127.0.0.1", "localhost", "kubernetes.default.svc")).signedBy(ca, caKeys.getPrivate());
        adminKeys = CertificateBuilder.rsaKeys();
        admin = clientCertificate("O=system:masters,CN=kopf4j-admin", adminKeys);
        KeyPair serviceAccount = CertificateBuilder.rsaKeys();

        caCert = write(dir.resolve("ca.crt"), ca);
        serverCert = write(dir.resolve("apiserver.crt"), server);
        serverKey = write(dir.resolve("apiserver.key"), serverKeys.getPrivate());
        adminCert = write(dir.resolve("admin.crt"), admin);
        adminKey = write(dir.resolve("admin.key"), adminKeys.getPrivate());
        serviceAccountKey = write(dir.resolve("sa.key"), serviceAccount.getPrivate());
        serviceAccountPublicKey = write(dir.resolve("sa.pub"), serviceAccount.getPublic());
    }

    /**
     * A client certificate and key for a user and its groups, signed by this CA, as PEM files.
     *
     * @return the certificate file and the key file
     */
    Path[] client(Path dir, String user, String... groups) throws IOException, GeneralSecurityException {
        StringBuilder subject = new StringBuilder();
        for (String group : groups) {
            subject.append("O=").append(group).append(',');
        }
        subject.append("CN=").append(user);
        KeyPair keys = CertificateBuilder.rsaKeys();
        X509Certificate certificate = clientCertificate(subject.toString(), keys);
        return new Path[]{write(dir.resolve(user + ".crt"), certificate), write(dir.resolve(user + ".key"), keys.getPrivate())};
    }

    private X509Certificate clientCertificate(String subject, KeyPair keys) throws GeneralSecurityException {
        return new CertificateBuilder(subject, keys.getPublic()).clientAuth().signedBy(ca, caKeys.getPrivate());
    }

    /** An SSL context that trusts only this CA and presents the admin certificate. */
    SSLContext adminSslContext() throws GeneralSecurityException, IOException {
        char[] password = new char[0];
        KeyStore keys = KeyStore.getInstance("PKCS12");
        keys.load(null, null);
        keys.setKeyEntry("admin", adminKeys.getPrivate(), password, new X509Certificate[]{admin, ca});
        KeyManagerFactory keyManagers = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        keyManagers.init(keys, password);
        KeyStore trust = KeyStore.getInstance("PKCS12");
        trust.load(null, null);
        trust.setCertificateEntry("ca", ca);
        TrustManagerFactory trustManagers = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        trustManagers.init(trust);
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(keyManagers.getKeyManagers(), trustManagers.getTrustManagers(), RANDOM);
        return context;
    }

    static String base64(Path file) throws IOException {
        return Base64.getEncoder().encodeToString(Files.readAllBytes(file));
    }

    /** Keys as PKCS#8 ("PRIVATE KEY"), which Go, kubectl and fabric8 all read. */
    private static Path write(Path file, Object pemObject) throws IOException {
        Files.writeString(file, Pem.encode(pemObject));
        return file;
    }
}
