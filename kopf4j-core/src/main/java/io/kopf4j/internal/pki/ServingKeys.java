package io.kopf4j.internal.pki;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.List;
import javax.net.ssl.KeyManager;
import javax.net.ssl.SSLContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a TLS server of kopf4j's own presents (the metrics endpoint's): a certificate and key from
 * files, re-read when they change (cert-manager renews a mounted Secret in place), or, without
 * files, a self-signed certificate made at start, as controller-runtime's servers make one.
 *
 * <pre>{@code
 * try (ServingKeys keys = ServingKeys.fromFiles(dir.resolve("tls.crt"), dir.resolve("tls.key"), Duration.ofSeconds(60))) {
 *     httpsServer.setHttpsConfigurator(new HttpsConfigurator(keys.sslContext()));
 * }
 * }</pre>
 */
public final class ServingKeys implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ServingKeys.class);

    private final ReloadingKeyManager keys;
    private final FileWatch watch;

    private ServingKeys(ReloadingKeyManager keys, FileWatch watch) {
        this.keys = keys;
        this.watch = watch;
    }

    /**
     * The certificate chain and key of these PEM files, checked for changes every interval.
     *
     * @param certfile the certificate chain, the server's first
     * @param keyfile its private key
     * @param interval how often the files are checked for changes
     * @return the keys, which {@link #close()} stops watching
     * @throws IOException if they cannot be read, or do not belong together
     */
    public static ServingKeys fromFiles(Path certfile, Path keyfile, Duration interval) throws IOException {
        ReloadingKeyManager keys = new ReloadingKeyManager(read(certfile, keyfile));
        FileWatch watch = FileWatch.start(List.of(certfile, keyfile), interval, () -> {
            try {
                keys.use(read(certfile, keyfile));
                LOG.info("Serving with the renewed certificate of {}.", certfile);
                return true;
            } catch (IOException e) {
                LOG.warn("Cannot load the renewed certificate of {}, serving with the old one: {}", certfile, e.getMessage());
                return false;
            }
        });
        return new ServingKeys(keys, watch);
    }

    /**
     * A self-signed certificate for these names (its common name the first), made now.
     *
     * @param names DNS names or IP addresses, at least one
     * @return the keys
     * @throws IOException if it cannot be made
     */
    public static ServingKeys selfSigned(List<String> names) throws IOException {
        try {
            KeyPair pair = CertificateBuilder.ecKeys();
            X509Certificate certificate = new CertificateBuilder("CN=" + names.getFirst(), pair.getPublic())
                    .serverAuth().sans(names).selfSigned(pair.getPrivate());
            return new ServingKeys(new ReloadingKeyManager(new KeyMaterial(List.of(certificate), pair.getPrivate())), null);
        } catch (GeneralSecurityException e) {
            throw new IOException("cannot make a self-signed certificate: " + e.getMessage(), e);
        }
    }

    /**
     * {@return a TLS context that presents the current certificate}
     *
     * @throws IOException if the JDK has no TLS
     */
    public SSLContext sslContext() throws IOException {
        try {
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(new KeyManager[]{keys}, null, null);
            return context;
        } catch (GeneralSecurityException e) {
            throw new IOException("cannot set up TLS: " + e.getMessage(), e);
        }
    }

    private static KeyMaterial read(Path certfile, Path keyfile) throws IOException {
        try {
            return new KeyMaterial(Pem.certificates(Files.readString(certfile)), Pem.privateKey(Files.readString(keyfile), null));
        } catch (GeneralSecurityException | IllegalArgumentException e) {
            throw new IOException(certfile + " and " + keyfile + ": " + e.getMessage(), e);
        }
    }

    /** Stops watching the files. */
    @Override
    public void close() {
        if (watch != null) {
            watch.close();
        }
    }
}
