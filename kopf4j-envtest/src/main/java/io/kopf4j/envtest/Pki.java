package io.kopf4j.envtest;

import io.kopf4j.internal.pki.CertificateBuilder;
import io.kopf4j.internal.pki.Pem;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.util.Base64;
import java.util.List;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * The certificates of a local cluster, made with kopf4j's {@link CertificateBuilder}: a CA,
 * the API server's serving certificate (for 127.0.0.1 and localhost), an admin client certificate
 * in {@code system:masters}, and the service-account signing key. Written as PEM under {@code dir};
 * a kept cluster reads them back at its next start ({@link #openOrCreate}), so that its kubeconfig
 * and the tokens it signed stay valid.
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
    private X509Certificate ca;
    private KeyPair caKeys;
    private X509Certificate admin;
    private KeyPair adminKeys;

    private Pki(Path dir) throws IOException {
        caCert = dir.resolve("ca.crt");
        serverCert = dir.resolve("apiserver.crt");
        serverKey = dir.resolve("apiserver.key");
        adminCert = dir.resolve("admin.crt");
        adminKey = dir.resolve("admin.key");
        serviceAccountKey = dir.resolve("sa.key");
        serviceAccountPublicKey = dir.resolve("sa.pub");
        PrivateFiles.directory(dir);
    }

    /** New certificates and keys, written under {@code dir}. */
    static Pki create(Path dir) throws IOException, GeneralSecurityException {
        Pki pki = new Pki(dir);
        KeyPair caKeys = CertificateBuilder.rsaKeys();
        X509Certificate ca = new CertificateBuilder("CN=kopf4j-local-ca", caKeys.getPublic()).ca().selfSigned(caKeys.getPrivate());
        KeyPair serverKeys = CertificateBuilder.rsaKeys();
        X509Certificate server = serving("kube-apiserver", serverKeys, ca, caKeys.getPrivate());
        KeyPair adminKeys = CertificateBuilder.rsaKeys();
        X509Certificate admin = new CertificateBuilder("O=system:masters,CN=kopf4j-admin", adminKeys.getPublic()).clientAuth()
                .signedBy(ca, caKeys.getPrivate());
        KeyPair serviceAccount = CertificateBuilder.rsaKeys();
        write(pki.serverCert, server);
        write(pki.serverKey, serverKeys.getPrivate());
        write(pki.serviceAccountKey, serviceAccount.getPrivate());
        write(pki.serviceAccountPublicKey, serviceAccount.getPublic());
        // The CA's certificate last: its presence says the directory holds a complete set.
        write(pki.adminCert, admin);
        write(pki.adminKey, adminKeys.getPrivate());
        write(pki.caKeyFile(), caKeys.getPrivate());
        write(pki.caCert, ca);
        return pki.load();
    }

    /** The certificates and keys under {@code dir}, made there first if it holds none. */
    static Pki openOrCreate(Path dir) throws IOException, GeneralSecurityException {
        Pki pki = new Pki(dir);
        return Files.isRegularFile(pki.caCert) ? pki.load() : create(dir);
    }

    private Pki load() throws IOException, GeneralSecurityException {
        ca = Pem.certificates(Files.readString(caCert)).getFirst();
        caKeys = new KeyPair(ca.getPublicKey(), Pem.privateKey(Files.readString(caKeyFile()), null));
        admin = Pem.certificates(Files.readString(adminCert)).getFirst();
        adminKeys = new KeyPair(admin.getPublicKey(), Pem.privateKey(Files.readString(adminKey), null));
        return this;
    }

    private Path caKeyFile() {
        return caCert.resolveSibling("ca.key");
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
        X509Certificate certificate = new CertificateBuilder(subject.toString(), keys.getPublic()).clientAuth()
                .signedBy(ca, caKeys.getPrivate());
        return new Path[]{write(dir.resolve(user + ".crt"), certificate), write(dir.resolve(user + ".key"), keys.getPrivate())};
    }

    /**
     * A serving certificate and key for a process of the control plane on 127.0.0.1 (the controller
     * manager's {@code /healthz}), signed by this CA, so that the admin's SSL context trusts it.
     *
     * @return the certificate file and the key file
     */
    Path[] server(Path dir, String name) throws IOException, GeneralSecurityException {
        KeyPair keys = CertificateBuilder.rsaKeys();
        return new Path[]{write(dir.resolve(name + ".crt"), serving(name, keys, ca, caKeys.getPrivate())),
            write(dir.resolve(name + ".key"), keys.getPrivate())};
    }

    private static X509Certificate serving(String name, KeyPair keys, X509Certificate ca, PrivateKey caKey)
            throws GeneralSecurityException {
        return new CertificateBuilder("CN=" + name, keys.getPublic()).serverAuth()
                .sans(List.of("127.0.0.1", "localhost", "kubernetes.default.svc")).signedBy(ca, caKey);
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
        return PrivateFiles.write(file, Pem.encode(pemObject));
    }
}
