package io.kopf4j.testing;

import java.io.IOException;
import java.io.StringWriter;
import java.math.BigInteger;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.KeyStore;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Date;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.ExtendedKeyUsage;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.openssl.jcajce.JcaPKCS8Generator;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/**
 * The certificates of a throw-away cluster, made with BouncyCastle: a CA, the API server's
 * serving certificate (for 127.0.0.1 and localhost), an admin client certificate in
 * {@code system:masters}, and the service-account signing key. Written as PEM under {@code dir}.
 */
final class Pki {
    private static final Duration VALIDITY = Duration.ofDays(365);
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
        caKeys = rsa();
        ca = sign(new X500Name("CN=kopf4j-local-ca"), caKeys, new X500Name("CN=kopf4j-local-ca"), caKeys, Role.CA);
        KeyPair serverKeys = rsa();
        X509Certificate server = sign(new X500Name("CN=kube-apiserver"), serverKeys, ca, caKeys, Role.SERVER);
        adminKeys = rsa();
        admin = sign(new X500Name("O=system:masters,CN=kopf4j-admin"), adminKeys, ca, caKeys, Role.CLIENT);
        KeyPair serviceAccount = rsa();

        caCert = write(dir.resolve("ca.crt"), ca);
        serverCert = write(dir.resolve("apiserver.crt"), server);
        serverKey = writeKey(dir.resolve("apiserver.key"), serverKeys);
        adminCert = write(dir.resolve("admin.crt"), admin);
        adminKey = writeKey(dir.resolve("admin.key"), adminKeys);
        serviceAccountKey = writeKey(dir.resolve("sa.key"), serviceAccount);
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
        KeyPair keys = rsa();
        X509Certificate certificate = sign(new X500Name(subject.toString()), keys, ca, caKeys, Role.CLIENT);
        return new Path[]{write(dir.resolve(user + ".crt"), certificate), writeKey(dir.resolve(user + ".key"), keys)};
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

    private enum Role { CA, SERVER, CLIENT }

    private static KeyPair rsa() throws GeneralSecurityException {
        KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
        generator.initialize(2048, RANDOM);
        return generator.generateKeyPair();
    }

    private static X509Certificate sign(X500Name subject, KeyPair subjectKeys, X509Certificate issuer, KeyPair issuerKeys,
                                        Role role) throws GeneralSecurityException, IOException {
        return sign(subject, subjectKeys, X500Name.getInstance(issuer.getSubjectX500Principal().getEncoded()), issuerKeys, role);
    }

    private static X509Certificate sign(X500Name subject, KeyPair subjectKeys, X500Name issuer, KeyPair issuerKeys,
                                        Role role) throws GeneralSecurityException, IOException {
        Instant now = Instant.now();
        X509v3CertificateBuilder builder = new JcaX509v3CertificateBuilder(issuer, new BigInteger(64, RANDOM),
                Date.from(now.minus(Duration.ofHours(1))), Date.from(now.plus(VALIDITY)), subject, subjectKeys.getPublic());
        switch (role) {
            case CA -> {
                builder.addExtension(Extension.basicConstraints, true, new BasicConstraints(true));
                builder.addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.keyCertSign | KeyUsage.cRLSign
                        | KeyUsage.digitalSignature));
            }
            case SERVER -> {
                builder.addExtension(Extension.basicConstraints, false, new BasicConstraints(false));
                builder.addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.digitalSignature | KeyUsage.keyEncipherment));
                builder.addExtension(Extension.extendedKeyUsage, false, new ExtendedKeyUsage(KeyPurposeId.id_kp_serverAuth));
                builder.addExtension(Extension.subjectAlternativeName, false, new GeneralNames(new GeneralName[]{
                        new GeneralName(GeneralName.iPAddress, InetAddress.getLoopbackAddress().getHostAddress()),
                        new GeneralName(GeneralName.dNSName, "localhost"),
                        new GeneralName(GeneralName.dNSName, "kubernetes.default.svc")}));
            }
            case CLIENT -> {
                builder.addExtension(Extension.basicConstraints, false, new BasicConstraints(false));
                builder.addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.digitalSignature | KeyUsage.keyEncipherment));
                builder.addExtension(Extension.extendedKeyUsage, false, new ExtendedKeyUsage(KeyPurposeId.id_kp_clientAuth));
            }
        }
        try {
            return new JcaX509CertificateConverter().getCertificate(
                    builder.build(new JcaContentSignerBuilder("SHA256withRSA").build(issuerKeys.getPrivate())));
        } catch (OperatorCreationException e) {
            throw new GeneralSecurityException(e);
        }
    }

    private static Path write(Path file, Object pemObject) throws IOException {
        StringWriter text = new StringWriter();
        try (JcaPEMWriter writer = new JcaPEMWriter(text)) {
            writer.writeObject(pemObject);
        }
        Files.writeString(file, text.toString());
        return file;
    }

    /** Private keys as PKCS#8 ("PRIVATE KEY"), which Go, kubectl and fabric8 all read. */
    private static Path writeKey(Path file, KeyPair keys) throws IOException {
        return write(file, new JcaPKCS8Generator(keys.getPrivate(), null).generate());
    }
}
