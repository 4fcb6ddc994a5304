package io.kopf4j.kits.webhooks;

import io.kopf4j.internal.pki.CertificateBuilder;
import io.kopf4j.internal.pki.KeyMaterial;
import io.kopf4j.internal.pki.Pem;
import java.io.IOException;
import java.nio.file.Files;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The server's certificate and key, and the CA bundle published for the API server (Kopf's
 * {@code _build_ssl}): from {@code certfile}/{@code pkeyfile} when given, else generated (a CA and
 * a serving certificate for the host, the address and the extra names). The bundle is
 * {@code cadata}, else {@code cafile}'s content, else the certificate file's; for a generated
 * certificate, always its CA. Written to {@code cadump} when set.
 *
 * <pre>{@code
 * ServerCertificates.Loaded loaded = ServerCertificates.load(options);
 * keyManager.use(loaded.material());
 * }</pre>
 */
final class ServerCertificates {
    private static final Logger LOGGER = LoggerFactory.getLogger(ServerCertificates.class);

    private ServerCertificates() {
    }

    /**
     * @param material what the server presents, or null for an insecure server
     * @param caBundle the PEM CA bundle to publish, or null for none
     */
    record Loaded(KeyMaterial material, String caBundle) {
    }

    static Loaded load(ServerOptions options) throws IOException, GeneralSecurityException {
        String caBundle = options.cadata();
        if (caBundle == null && options.cafile() != null) {
            caBundle = Files.readString(options.cafile());
        }
        KeyMaterial material = null;
        if (!options.insecure()) {
            if (options.certfile() != null) {
                LOGGER.debug("Using a provided certificate for HTTPS.");
                String chain = Files.readString(options.certfile());
                char[] password = options.password() == null ? null : options.password().toCharArray();
                material = new KeyMaterial(Pem.certificates(chain), Pem.privateKey(Files.readString(options.pkeyfile()), password));
                caBundle = caBundle == null ? chain : caBundle;
            } else {
                LOGGER.debug("Generating a self-signed certificate for HTTPS.");
                String addr = WebhookUrls.accessibleAddr(options.addr());
                List<String> hostnames = new ArrayList<>();
                hostnames.add(options.host() != null ? options.host() : addr);
                hostnames.add(addr);
                hostnames.addAll(options.extraSans());
                Generated generated = generate(hostnames);
                material = generated.material();
                caBundle = Pem.encode(generated.ca());
            }
        }
        if (options.cadump() != null && caBundle != null) {
            Files.writeString(options.cadump(), caBundle);
        }
        return new Loaded(material, caBundle);
    }

    record Generated(KeyMaterial material, X509Certificate ca) {
    }

    /**
     * A CA and a serving certificate signed by it, both on EC keys. The common name is the first
     * name that is not an IP address (else the first address); the alternative names are all the
     * names and the addresses except "any address" (0.0.0.0, ::), which no client connects to.
     * Kopf makes a single self-signed certificate that is its own CA; a separate CA keeps the
     * published bundle a proper trust anchor for strict clients.
     */
    static Generated generate(List<String> hostnames) throws GeneralSecurityException {
        Set<String> names = new LinkedHashSet<>();
        for (String hostname : hostnames) {
            if (!WebhookUrls.isUnspecified(hostname)) {
                names.add(hostname);
            }
        }
        if (names.isEmpty()) {
            throw new GeneralSecurityException("no host names for the certificate: " + hostnames);
        }
        String commonName = names.stream().filter(name -> !CertificateBuilder.isIpLiteral(name)).findFirst()
                .orElse(names.iterator().next());
        KeyPair caKeys = CertificateBuilder.ecKeys();
        X509Certificate ca = new CertificateBuilder("CN=kopf4j-webhook-ca", caKeys.getPublic()).ca()
                .selfSigned(caKeys.getPrivate());
        KeyPair keys = CertificateBuilder.ecKeys();
        X509Certificate certificate = new CertificateBuilder("CN=" + commonName, keys.getPublic())
                .serverAuth().clientAuth().sans(names).signedBy(ca, caKeys.getPrivate());
        return new Generated(new KeyMaterial(List.of(certificate, ca), keys.getPrivate()), ca);
    }
}
