package io.kopf4j.internal.pki;

import java.io.IOException;
import java.math.BigInteger;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Date;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
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
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/**
 * One X.509 certificate, built with BouncyCastle (the JDK can parse certificates but not make
 * them): a CA, a server's or a client's, with subject alternative names (DNS names, or IP
 * addresses when they parse as such). Used for the webhook server's self-signed certificates and
 * for the test kit's throw-away clusters.
 *
 * <pre>{@code
 * KeyPair caKeys = CertificateBuilder.ecKeys();
 * X509Certificate ca = new CertificateBuilder("CN=my-ca", caKeys.getPublic()).ca().selfSigned(caKeys.getPrivate());
 * KeyPair keys = CertificateBuilder.ecKeys();
 * X509Certificate server = new CertificateBuilder("CN=localhost", keys.getPublic())
 *         .serverAuth().sans(List.of("localhost", "127.0.0.1")).signedBy(ca, caKeys.getPrivate());
 * }</pre>
 */
public final class CertificateBuilder {
    private static final SecureRandom RANDOM = new SecureRandom();
    /** Valid from a while ago: the clocks of a cluster's nodes and of this machine may differ a little. */
    private static final Duration BACKDATING = Duration.ofHours(1);

    private final X500Name subject;
    private final PublicKey publicKey;
    private final Set<KeyPurposeId> purposes = new LinkedHashSet<>();
    private final List<GeneralName> sans = new ArrayList<>();
    private boolean ca;
    /** How long a certificate is valid from now. */
    private static final Duration VALIDITY = Duration.ofDays(365);
    /** When the certificate expires; null: a year from when it is built. */
    private Instant notAfter;

    /**
     * A certificate for the subject's key.
     *
     * @param subjectDn the subject as an X.500 name ({@code "O=group,CN=name"})
     * @param publicKey the subject's public key
     */
    public CertificateBuilder(String subjectDn, PublicKey publicKey) {
        this.subject = new X500Name(subjectDn);
        this.publicKey = publicKey;
    }

    /**
     * {@return a new 2048-bit RSA key pair}
     *
     * @throws GeneralSecurityException if the JDK has no RSA key generator
     */
    public static KeyPair rsaKeys() throws GeneralSecurityException {
        KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
        generator.initialize(2048, RANDOM);
        return generator.generateKeyPair();
    }

    /**
     * {@return a new EC P-256 key pair}: made in a millisecond (RSA takes a hundred or more), and
     * its TLS handshakes are cheaper too; every Kubernetes API server accepts it.
     *
     * @throws GeneralSecurityException if the JDK has no EC key generator for the curve
     */
    public static KeyPair ecKeys() throws GeneralSecurityException {
        KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
        generator.initialize(new ECGenParameterSpec("secp256r1"), RANDOM);
        return generator.generateKeyPair();
    }

    /** {@return this builder} The certificate is a CA's: it may sign certificates. */
    public CertificateBuilder ca() {
        this.ca = true;
        return this;
    }

    /** {@return this builder} The certificate authenticates a TLS server. */
    public CertificateBuilder serverAuth() {
        purposes.add(KeyPurposeId.id_kp_serverAuth);
        return this;
    }

    /** {@return this builder} The certificate authenticates a TLS client. */
    public CertificateBuilder clientAuth() {
        purposes.add(KeyPurposeId.id_kp_clientAuth);
        return this;
    }

    /**
     * Sets when the certificate expires, instead of a year after it is built: short-lived
     * certificates, renewed before then (and expired ones, to see what a client makes of them).
     *
     * @param notAfter the last moment it is valid
     * @return this builder
     */
    public CertificateBuilder validUntil(Instant notAfter) {
        this.notAfter = notAfter;
        return this;
    }

    /**
     * Adds subject alternative names: IP addresses for the names that are IPv4 or IPv6 literals,
     * DNS names for the others.
     *
     * @param names host names and addresses
     * @return this builder
     */
    public CertificateBuilder sans(Collection<String> names) {
        for (String name : names) {
            sans.add(new GeneralName(isIpLiteral(name) ? GeneralName.iPAddress : GeneralName.dNSName, name));
        }
        return this;
    }

    /**
     * Signs the certificate with the subject's own key.
     *
     * @param privateKey the private key of the builder's public key
     * @return the certificate
     * @throws GeneralSecurityException when the key cannot sign
     */
    public X509Certificate selfSigned(PrivateKey privateKey) throws GeneralSecurityException {
        return build(subject, privateKey);
    }

    /**
     * Signs the certificate with a CA's key.
     *
     * @param issuer the CA's certificate
     * @param issuerKey the CA's private key
     * @return the certificate
     * @throws GeneralSecurityException when the key cannot sign
     */
    public X509Certificate signedBy(X509Certificate issuer, PrivateKey issuerKey) throws GeneralSecurityException {
        return build(X500Name.getInstance(issuer.getSubjectX500Principal().getEncoded()), issuerKey);
    }

    /**
     * {@return whether the name is an IPv4 or IPv6 literal}, without a DNS lookup.
     *
     * @param name a host name or address, e.g. {@code "10.0.0.1"}, {@code "::1"} or {@code "localhost"}
     */
    public static boolean isIpLiteral(String name) {
        return name.matches("\\d{1,3}(\\.\\d{1,3}){3}") || (name.contains(":") && name.matches("[0-9A-Fa-f:.]+"));
    }

    private X509Certificate build(X500Name issuer, PrivateKey issuerKey) throws GeneralSecurityException {
        Instant now = Instant.now();
        X509v3CertificateBuilder builder = new JcaX509v3CertificateBuilder(issuer, new BigInteger(64, RANDOM),
                Date.from(now.minus(BACKDATING)), Date.from(notAfter == null ? now.plus(VALIDITY) : notAfter), subject, publicKey);
        try {
            builder.addExtension(Extension.basicConstraints, ca, new BasicConstraints(ca));
            builder.addExtension(Extension.keyUsage, true, new KeyUsage(ca
                    ? KeyUsage.keyCertSign | KeyUsage.cRLSign | KeyUsage.digitalSignature
                    : KeyUsage.digitalSignature | KeyUsage.keyEncipherment));
            if (!purposes.isEmpty()) {
                builder.addExtension(Extension.extendedKeyUsage, false,
                        new ExtendedKeyUsage(purposes.toArray(KeyPurposeId[]::new)));
            }
            if (!sans.isEmpty()) {
                builder.addExtension(Extension.subjectAlternativeName, false,
                        new GeneralNames(sans.toArray(GeneralName[]::new)));
            }
            String algorithm = "EC".equals(issuerKey.getAlgorithm()) ? "SHA256withECDSA" : "SHA256withRSA";
            return new JcaX509CertificateConverter().getCertificate(
                    builder.build(new JcaContentSignerBuilder(algorithm).build(issuerKey)));
        } catch (IOException | OperatorCreationException e) {
            throw new GeneralSecurityException("cannot build the certificate for " + subject + ": " + e.getMessage(), e);
        }
    }
}
