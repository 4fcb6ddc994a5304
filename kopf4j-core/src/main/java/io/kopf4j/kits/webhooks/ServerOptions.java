package io.kopf4j.kits.webhooks;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.stream.Stream;

/**
 * A webhook server's options, as {@link WebhookServer} collects them (Kopf's
 * {@code WebhookServer} arguments); see there for each.
 *
 * <pre>{@code
 * new ServerOptions(null, 9443, "/", "host.k3d.internal", null, null, null, false, null, null, null,
 *         List.of(), ClientVerification.NONE, Duration.ofSeconds(60), WebhookServer.DEFAULT_MAX_REQUEST_SIZE,
 *         WebhookServer.DEFAULT_MAX_CONVERSION_REQUEST_SIZE)
 * }</pre>
 *
 * @param addr where to listen, or null for all interfaces
 * @param port the port, or null (or 0) for a free one
 * @param path the root path, or null
 * @param host the host name in the published URL, or null for the accessible listening address
 * @param cadata the CA bundle (PEM) to publish, or null
 * @param cafile the file of the CA bundle to publish, or null
 * @param cadump where to write the published CA bundle, or null
 * @param insecure plain HTTP instead of HTTPS
 * @param certfile the server's certificate chain (PEM), or null to generate one
 * @param pkeyfile the server's private key (PEM), or null to generate one
 * @param password the password of the private key, or null
 * @param extraSans more names for the generated certificate
 * @param verification whether and how clients' certificates are verified
 * @param fileCheckInterval how often the certificate files are checked for changes
 * @param maxRequestSize the largest request body read, in bytes; larger ones get 413
 * @param maxConversionRequestSize the same for conversion requests ({@code {path}/convert/...})
 */
record ServerOptions(String addr, Integer port, String path, String host,
                            String cadata, Path cafile, Path cadump,
                            boolean insecure, Path certfile, Path pkeyfile, String password,
                            List<String> extraSans, ClientVerification verification, Duration fileCheckInterval,
                            long maxRequestSize, long maxConversionRequestSize) {
    /** Copies the list; checks what cannot work together. */
    public ServerOptions {
        extraSans = List.copyOf(extraSans);
        if ((certfile == null) != (pkeyfile == null)) {
            throw new IllegalArgumentException("a webhook server needs both certfile and pkeyfile, or neither");
        }
        if (insecure && (certfile != null || verification.verifies())) {
            throw new IllegalArgumentException("an insecure (HTTP) webhook server cannot have certificates");
        }
        if (fileCheckInterval == null || !fileCheckInterval.isPositive()) {
            throw new IllegalArgumentException("the file check interval must be positive, got " + fileCheckInterval);
        }
    }

    /** {@return the root path without trailing slashes: empty for none} */
    public String rootPath() {
        return path == null ? "" : path.replaceAll("/+$", "");
    }

    /** {@return the files whose changes reload the certificates: certfile, pkeyfile, cafile as given} */
    public List<Path> watchedFiles() {
        return Stream.of(certfile, pkeyfile, cafile).filter(Objects::nonNull).toList();
    }
}
