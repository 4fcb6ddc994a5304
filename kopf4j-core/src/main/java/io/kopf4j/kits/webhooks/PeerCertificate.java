package io.kopf4j.kits.webhooks;

import java.math.BigInteger;
import java.security.cert.CertificateParsingException;
import java.security.cert.X509Certificate;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.bouncycastle.asn1.ASN1ObjectIdentifier;
import org.bouncycastle.asn1.ASN1String;
import org.bouncycastle.asn1.x500.AttributeTypeAndValue;
import org.bouncycastle.asn1.x500.RDN;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x500.style.BCStyle;
import org.bouncycastle.asn1.x500.style.IETFUtils;

/**
 * A client certificate as Kopf's handlers see it in {@code sslpeer}: the shape of Python's
 * {@code SSLSocket.getpeercert()}, with its tuples as lists. Subject and issuer are lists of
 * RDNs, each a list of {@code [name, value]} pairs under OpenSSL's long names, in the
 * certificate's order.
 *
 * <pre>{@code
 * {"subject": [[["commonName", "kube-apiserver"]]], "issuer": [[["commonName", "my-ca"]]],
 *  "version": 3, "serialNumber": "4F2A...", "notBefore": "May  9 10:00:00 2026 GMT",
 *  "notAfter": "May  9 10:00:00 2027 GMT", "subjectAltName": [["DNS", "localhost"]]}
 * }</pre>
 */
final class PeerCertificate {
    /** OpenSSL's long names for the usual attributes (OBJ_nid2ln); others go by their dotted OID. */
    private static final Map<ASN1ObjectIdentifier, String> NAMES = Map.ofEntries(
            Map.entry(BCStyle.CN, "commonName"), Map.entry(BCStyle.O, "organizationName"),
            Map.entry(BCStyle.OU, "organizationalUnitName"), Map.entry(BCStyle.C, "countryName"),
            Map.entry(BCStyle.ST, "stateOrProvinceName"), Map.entry(BCStyle.L, "localityName"),
            Map.entry(BCStyle.STREET, "streetAddress"), Map.entry(BCStyle.EmailAddress, "emailAddress"),
            Map.entry(BCStyle.DC, "domainComponent"), Map.entry(BCStyle.UID, "userId"),
            Map.entry(BCStyle.SERIALNUMBER, "serialNumber"), Map.entry(BCStyle.T, "title"),
            Map.entry(BCStyle.GIVENNAME, "givenName"), Map.entry(BCStyle.SURNAME, "surname"));
    /** Python's (OpenSSL's ASN1_TIME_print) format: "May  9 10:00:00 2026 GMT". */
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("MMM ppd HH:mm:ss yyyy 'GMT'", Locale.ROOT)
            .withZone(ZoneOffset.UTC);
    /** The general name types of X509Certificate.getSubjectAlternativeNames, as Python names them. */
    private static final Map<Integer, String> SAN_TYPES = Map.of(
            1, "email", 2, "DNS", 4, "DirName", 6, "URI", 7, "IP Address", 8, "Registered ID");

    private PeerCertificate() {
    }

    static Map<String, Object> describe(X509Certificate certificate) {
        Map<String, Object> peer = new LinkedHashMap<>();
        peer.put("subject", rdns(certificate.getSubjectX500Principal().getEncoded()));
        peer.put("issuer", rdns(certificate.getIssuerX500Principal().getEncoded()));
        peer.put("version", certificate.getVersion());
        peer.put("serialNumber", serial(certificate.getSerialNumber()));
        peer.put("notBefore", TIME.format(certificate.getNotBefore().toInstant()));
        peer.put("notAfter", TIME.format(certificate.getNotAfter().toInstant()));
        List<List<String>> sans = subjectAltNames(certificate);
        if (!sans.isEmpty()) {
            peer.put("subjectAltName", sans);
        }
        return peer;
    }

    private static List<List<List<String>>> rdns(byte[] encoded) {
        List<List<List<String>>> rdns = new ArrayList<>();
        for (RDN rdn : X500Name.getInstance(encoded).getRDNs()) {
            List<List<String>> pairs = new ArrayList<>();
            for (AttributeTypeAndValue pair : rdn.getTypesAndValues()) {
                pairs.add(List.of(NAMES.getOrDefault(pair.getType(), pair.getType().getId()),
                        pair.getValue() instanceof ASN1String text ? text.getString() : IETFUtils.valueToString(pair.getValue())));
            }
            rdns.add(pairs);
        }
        return rdns;
    }

    /** Upper-case hex with an even number of digits, as Python prints it. */
    private static String serial(BigInteger serial) {
        String hex = serial.toString(16).toUpperCase(Locale.ROOT);
        return hex.length() % 2 == 0 ? hex : "0" + hex;
    }

    private static List<List<String>> subjectAltNames(X509Certificate certificate) {
        Collection<List<?>> names;
        try {
            names = certificate.getSubjectAlternativeNames();
        } catch (CertificateParsingException e) {
            return List.of();
        }
        List<List<String>> sans = new ArrayList<>();
        if (names != null) {
            for (List<?> name : names) {
                String type = SAN_TYPES.get((Integer) name.get(0));
                if (type != null && name.get(1) instanceof String value) {
                    sans.add(List.of(type, value));
                }
            }
        }
        return sans;
    }
}
