package io.kopf4j.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.kopf4j.Handler;
import io.kopf4j.Operator;
import io.kopf4j.OperatorSettings;
import io.kopf4j.envtest.LocalCluster;
import io.kopf4j.envtest.LocalClusterExtension;
import io.kopf4j.envtest.TemporaryNamespace;
import io.kopf4j.internal.pki.CertificateBuilder;
import io.kopf4j.internal.pki.Pem;
import io.kopf4j.kits.webhooks.WebhookServer;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.KeyPair;
import java.security.KeyStore;
import java.security.cert.CertificateExpiredException;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLHandshakeException;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * A webhook server whose certificate is short-lived and renewed (same CA, same key) while the API
 * server calls it: the certificate file is replaced in place, the server serves the renewed one from
 * the next handshake on, and every creation, each of which the API server must send through the
 * mutating webhook (failurePolicy Fail; dry runs, which leave no objects), is admitted and mutated,
 * before and after the old certificate's expiry. A certificate that has expired fails the handshake with the expiry named.
 */
@ExtendWith(LocalClusterExtension.class)
class WebhookCertificatesTest {
    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final String LABEL = "kopf4j-it-certificates";
    /** The first certificate's life from the operator's start: enough for the API server to load the configuration. */
    private static final Duration FIRST_VALIDITY = Duration.ofSeconds(25);

    @Test
    void aRenewedCertificateKeepsTheApiServersCallsSucceeding(LocalCluster cluster, TemporaryNamespace namespace,
                                                            @TempDir Path dir) throws Exception {
        KeyPair caKeys = CertificateBuilder.ecKeys();
        X509Certificate ca = new CertificateBuilder("CN=webhooks-ca", caKeys.getPublic()).ca().selfSigned(caKeys.getPrivate());
        KeyPair keys = CertificateBuilder.ecKeys();
        Path caFile = Files.writeString(dir.resolve("ca.pem"), Pem.encode(ca));
        Path keyFile = Files.writeString(dir.resolve("tls.key"), Pem.encode(keys.getPrivate()));
        Path certFile = dir.resolve("tls.crt");
        Instant firstExpiry = Instant.now().plus(FIRST_VALIDITY);
        writeAtomically(certFile, Pem.encode(serving(keys, ca, caKeys, firstExpiry)));

        OperatorSettings settings = new OperatorSettings();
        WebhookServer server = new WebhookServer().addr("127.0.0.1").host("127.0.0.1")
                .cafile(caFile).certfile(certFile).pkeyfile(keyFile).fileCheckInterval(Duration.ofMillis(200));
        settings.admission.server = server;
        settings.admission.managed = namespace.name() + ".kopf4j.dev";
        OperatorFixture fixture = new OperatorFixture(cluster, namespace);
        fixture.examples();   // the CRD
        KubernetesClient client = cluster.client();
        try (Operator operator = fixture.start(fixture.operator().settings(settings)
                .handler(Handler.mutate("kopfexamples").id("stamp").labelPresent(LABEL).operations("CREATE")
                        .handle(context -> {
                            context.patch().spec().put("stamp", "mutated");
                            return null;
                        })))) {
            // The API server loads new configurations asynchronously: dry runs until one is mutated.
            await().atMost(WAIT).until(() -> "mutated".equals(spec(dryRunCreate(client, namespace, "probe")).get("stamp")));
            String url = client.admissionRegistration().v1().mutatingWebhookConfigurations()
                    .withName(settings.admission.managed).get().getWebhooks().get(0).getClientConfig().getUrl();
            URI address = URI.create(url);

            int created = 0;
            boolean renewed = false;
            // Creations until well after the first certificate's expiry; renewed 10 s before it.
            while (Instant.now().isBefore(firstExpiry.plusSeconds(5))) {
                if (!renewed && Instant.now().isAfter(firstExpiry.minusSeconds(10))) {
                    writeAtomically(certFile, Pem.encode(serving(keys, ca, caKeys, Instant.now().plus(Duration.ofHours(1)))));
                    renewed = true;
                }
                // A dry run goes through the webhooks as a creation does, and leaves no object behind.
                GenericKubernetesResource object = dryRunCreate(client, namespace, "o" + created);   // throws if rejected
                assertThat(spec(object)).as("object o" + created).containsEntry("stamp", "mutated");
                created++;
            }
            assertThat(renewed).isTrue();
            assertThat(created).as("creations across the renewal").isGreaterThan(10);
            // A handshake now, after the first certificate's expiry, gets the renewed one.
            assertThat(servedCertificate(address, ca).getNotAfter().toInstant()).isAfter(firstExpiry);

            // An expired certificate, once reloaded, fails every new handshake: the expiry is named.
            writeAtomically(certFile, Pem.encode(serving(keys, ca, caKeys, Instant.now().minusSeconds(60))));
            await().atMost(WAIT).untilAsserted(() -> assertThatThrownBy(() -> servedCertificate(address, ca))
                    .isInstanceOf(SSLHandshakeException.class).hasRootCauseInstanceOf(CertificateExpiredException.class));
        }
    }

    private static X509Certificate serving(KeyPair keys, X509Certificate ca, KeyPair caKeys, Instant notAfter)
            throws Exception {
        return new CertificateBuilder("CN=127.0.0.1", keys.getPublic()).serverAuth().sans(List.of("127.0.0.1"))
                .validUntil(notAfter).signedBy(ca, caKeys.getPrivate());
    }

    /** As a renewal writes it: a new file moved over the old one, so that the server never reads half of it. */
    private static void writeAtomically(Path file, String content) throws Exception {
        Path next = Files.writeString(file.resolveSibling(file.getFileName() + ".next"), content);
        Files.move(next, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    /** The certificate the server presents in a new handshake, verified against the CA (and its validity). */
    private static X509Certificate servedCertificate(URI address, X509Certificate ca) throws Exception {
        KeyStore trusted = KeyStore.getInstance(KeyStore.getDefaultType());
        trusted.load(null, null);
        trusted.setCertificateEntry("ca", ca);
        TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        trust.init(trusted);
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(null, trust.getTrustManagers(), null);
        try (SSLSocket socket = (SSLSocket) context.getSocketFactory().createSocket(address.getHost(), address.getPort())) {
            socket.startHandshake();
            return (X509Certificate) socket.getSession().getPeerCertificates()[0];
        }
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> spec(GenericKubernetesResource object) {
        return (Map<String, Object>) object.getAdditionalProperties().get("spec");
    }

    /** {@return the object as the webhooks made it} A creation in a dry run: through the webhooks, nothing stored. */
    private static GenericKubernetesResource dryRunCreate(KubernetesClient client, TemporaryNamespace namespace, String name) {
        var object = new GenericKubernetesResourceBuilder().withApiVersion("kopf.dev/v1").withKind("KopfExample")
                .withNewMetadata().withName(name).withLabels(Map.of(LABEL, "yes")).endMetadata()
                .addToAdditionalProperties("spec", Map.of("size", 1)).build();
        var resource = client.genericKubernetesResources("kopf.dev/v1", "KopfExample").inNamespace(namespace.name())
                .resource(object);
        return resource.dryRun().create();
    }
}
