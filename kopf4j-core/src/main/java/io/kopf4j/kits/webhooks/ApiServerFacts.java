package io.kopf4j.kits.webhooks;

import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.security.GeneralSecurityException;
import java.security.cert.CertificateParsingException;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509TrustManager;
import org.bouncycastle.asn1.ASN1Encodable;
import org.bouncycastle.asn1.ASN1ObjectIdentifier;
import org.bouncycastle.asn1.ASN1String;
import org.bouncycastle.asn1.x500.RDN;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x500.style.BCStyle;
import org.bouncycastle.asn1.x500.style.IETFUtils;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What tells a local cluster's kind: the API server's host in the client's URL, its serving
 * certificate's names (k3s, minikube and Docker Desktop each name theirs recognisably), and its
 * version. Read with the least permissions, as Kopf's {@code ClusterDetector} does: the
 * certificate from a TLS handshake alone, the version from {@code /version}.
 *
 * <pre>{@code
 * String host = ClusterDetector.guessHost(ApiServerFacts.read(client));
 * }</pre>
 *
 * @param host the API server's host in the client's URL
 * @param subjectCn the certificate's subject common name, or empty
 * @param subjectOrg the certificate's subject organisation, or empty
 * @param issuerCn the certificate's issuer common name, or empty
 * @param altNames the certificate's DNS and IP alternative names
 * @param gitVersion the server's {@code gitVersion}, or empty
 */
record ApiServerFacts(String host, String subjectCn, String subjectOrg, String issuerCn, List<String> altNames,
                             String gitVersion) {
    private static final Logger LOGGER = LoggerFactory.getLogger(ApiServerFacts.class);
    private static final int CONNECT_TIMEOUT_MILLIS = 5_000;

    /** Copies the list. */
    public ApiServerFacts {
        altNames = List.copyOf(altNames);
    }

    /**
     * Reads the facts of the client's API server; what cannot be read stays empty.
     *
     * @param client the operator's client
     * @return the facts
     */
    public static ApiServerFacts read(KubernetesClient client) {
        URI master = URI.create(client.getMasterUrl().toString());
        X509Certificate certificate = "https".equals(master.getScheme()) ? certificate(master) : null;
        String gitVersion = "";
        try {
            gitVersion = String.valueOf(client.getKubernetesVersion().getGitVersion());
        } catch (RuntimeException e) {
            LOGGER.debug("Cannot read the API server's version: {}", e.toString());
        }
        if (certificate == null) {
            return new ApiServerFacts(master.getHost(), "", "", "", List.of(), gitVersion);
        }
        X500Name subject = X500Name.getInstance(certificate.getSubjectX500Principal().getEncoded());
        X500Name issuer = X500Name.getInstance(certificate.getIssuerX500Principal().getEncoded());
        return new ApiServerFacts(master.getHost(), first(subject, BCStyle.CN), first(subject, BCStyle.O),
                first(issuer, BCStyle.CN), altNames(certificate), gitVersion);
    }

    /**
     * The API server's certificate, from a handshake that trusts anything: nothing is sent over
     * it, and the names are only a hint for choosing a host (the client verifies as usual).
     */
    private static X509Certificate certificate(URI master) {
        int port = master.getPort() < 0 ? 443 : master.getPort();
        try {
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(null, new TrustManager[]{new AnyCertificate()}, null);
            try (SSLSocket socket = (SSLSocket) context.getSocketFactory().createSocket()) {
                socket.connect(new InetSocketAddress(master.getHost(), port), CONNECT_TIMEOUT_MILLIS);
                socket.setSoTimeout(CONNECT_TIMEOUT_MILLIS);
                socket.startHandshake();
                return (X509Certificate) socket.getSession().getPeerCertificates()[0];
            }
        } catch (IOException | GeneralSecurityException | RuntimeException e) {
            LOGGER.debug("Cannot read the API server's certificate: {}", e.toString());
            return null;
        }
    }

    private static String first(X500Name name, ASN1ObjectIdentifier attribute) {
        RDN[] rdns = name.getRDNs(attribute);
        if (rdns.length == 0) {
            return "";
        }
        ASN1Encodable value = rdns[0].getFirst().getValue();
        return value instanceof ASN1String text ? text.getString() : IETFUtils.valueToString(value);
    }

    private static List<String> altNames(X509Certificate certificate) {
        List<String> names = new ArrayList<>();
        try {
            Collection<List<?>> entries = certificate.getSubjectAlternativeNames();
            for (List<?> entry : entries == null ? List.<List<?>>of() : entries) {
                if (entry.get(1) instanceof String value) {
                    names.add(value);
                }
            }
        } catch (CertificateParsingException e) {
            LOGGER.debug("Cannot read the API server certificate's names: {}", e.toString());
        }
        return names;
    }

    /** Accepts any server certificate: used for reading one, never for trusting a connection. */
    private static final class AnyCertificate implements X509TrustManager {
        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType) {
            throw new UnsupportedOperationException("a server's trust manager only");
        }

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType) {
            // Read, not trusted: nothing is sent over this connection.
        }

        @Override
        public X509Certificate[] getAcceptedIssuers() {
            return new X509Certificate[0];
        }
    }
}
