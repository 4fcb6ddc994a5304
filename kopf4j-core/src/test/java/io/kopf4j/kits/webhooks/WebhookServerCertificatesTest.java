package io.kopf4j.kits.webhooks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.kopf4j.WebhookClientConfig;
import io.kopf4j.WebhookRequest;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.bouncycastle.jce.provider.BouncyCastleProvider;
import org.bouncycastle.openssl.jcajce.JcaPKCS8Generator;
import org.bouncycastle.openssl.jcajce.JceOpenSSLPKCS8EncryptorBuilder;
import org.bouncycastle.util.io.pem.PemObject;
import org.bouncycastle.util.io.pem.PemWriter;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

class WebhookServerCertificatesTest {
    @RegisterExtension
    final StartedServers servers = new StartedServers();
    private final List<WebhookRequest> requests = servers.requests;
    private final List<WebhookClientConfig> configs = servers.configs;
    @TempDir
    Path dir;
    private Path certfile;
    private Path pkeyfile;
    private TestPki pki;

    @BeforeEach
    void givenCa() throws Exception {
        certfile = dir.resolve("tls.crt");
        pkeyfile = dir.resolve("tls.key");
        pki = TestPki.create("given-ca");
    }

    private WebhookClientConfig start(WebhookServer server) throws IOException {
        return servers.start(server);
    }

    private static String pem(WebhookClientConfig config) {
        return new String(Base64.getDecoder().decode(config.caBundle()), StandardCharsets.US_ASCII);
    }

    @Test
    void theGeneratedCertificateNamesTheHostTheAddressAndTheExtraNames() throws Exception {
        WebhookClientConfig config = start(new WebhookServer().addr("127.0.0.1").host("operator.local")
                .extraSans("my-operator.operators.svc", "10.1.2.3", "0.0.0.0"));

        assertThat(config.url()).matches("https://operator\\.local:\\d+");
        // The host does not resolve here: connect to the address, which the certificate names too.
        String byAddress = config.url().replace("operator.local", "127.0.0.1");
        HttpResponse<String> response = WebhookClients.post(WebhookClients.trusting(config), byAddress + "/hook", "{}");
        X509Certificate served = WebhookClients.servedCertificate(response);

        assertThat(served.getSubjectX500Principal().getName()).isEqualTo("CN=operator.local");
        assertThat(served.getSubjectAlternativeNames()).containsExactlyInAnyOrder(
                List.of(2, "operator.local"), List.of(7, "127.0.0.1"),
                List.of(2, "my-operator.operators.svc"), List.of(7, "10.1.2.3"));
        X509Certificate ca = io.kopf4j.internal.pki.Pem.certificates(pem(config)).getFirst();
        assertThat(served.getIssuerX500Principal()).isEqualTo(ca.getSubjectX500Principal());
        assertThat(ca.getBasicConstraints()).isGreaterThanOrEqualTo(0);
    }

    @Test
    void servesTheGivenCertificateAndSwapsItInWhenTheFilesChange() throws Exception {
        TestPki.Issued first = pki.server("localhost");
        pki.write(first, certfile, pkeyfile);
        WebhookServer server = new WebhookServer().addr("localhost").certfile(certfile).pkeyfile(pkeyfile)
                .fileCheckInterval(Duration.ofMillis(50));
        WebhookClientConfig config = start(server);

        assertThat(pem(config)).isEqualTo(Files.readString(certfile));
        HttpResponse<String> before = WebhookClients.post(WebhookClients.trusting(config), config.url() + "/hook", "{}");
        assertThat(WebhookClients.servedCertificate(before)).isEqualTo(first.certificate());

        TestPki.Issued renewed = pki.server("localhost");
        pki.write(renewed, certfile, pkeyfile);

        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(WebhookClients.servedCertificate(
                WebhookClients.post(WebhookClients.trusting(config), config.url() + "/hook", "{}"))).isEqualTo(renewed.certificate()));
        await().atMost(Duration.ofSeconds(10)).until(() -> configs.size() == 2);
        assertThat(pem(configs.getLast())).isEqualTo(Files.readString(certfile));
        assertThat(configs.getLast().url()).isEqualTo(config.url());
        assertThat(server.ready()).isTrue();
    }

    @Test
    void publishesTheGivenCaBundleInsteadOfTheCertificate() throws Exception {
        Path cafile = dir.resolve("ca.crt");
        pki.write(pki.server("localhost"), certfile, pkeyfile);
        Files.writeString(cafile, pki.caPem());

        WebhookClientConfig config = start(new WebhookServer().addr("localhost").certfile(certfile).pkeyfile(pkeyfile).cafile(cafile));

        assertThat(pem(config)).isEqualTo(pki.caPem());
    }

    @Test
    void readsAnEncryptedKeyWithThePassword() throws Exception {
        TestPki.Issued issued = pki.server("localhost");
        pki.write(issued, certfile, pkeyfile);
        PemObject encrypted = new JcaPKCS8Generator(issued.key(), new JceOpenSSLPKCS8EncryptorBuilder(JcaPKCS8Generator.AES_256_CBC)
                .setProvider(new BouncyCastleProvider()).setRandom(new SecureRandom()).setPassword("secret".toCharArray()).build()).generate();
        try (PemWriter writer = new PemWriter(Files.newBufferedWriter(pkeyfile))) {
            writer.writeObject(encrypted);
        }

        assertThatThrownBy(() -> start(new WebhookServer().addr("localhost").certfile(certfile).pkeyfile(pkeyfile)))
                .isInstanceOf(IOException.class).hasMessageContaining("no password");
        WebhookClientConfig config = start(new WebhookServer().addr("localhost").certfile(certfile).pkeyfile(pkeyfile).password("secret"));
        HttpResponse<String> response = WebhookClients.post(WebhookClients.trusting(config), config.url() + "/hook", "{}");
        assertThat(WebhookClients.servedCertificate(response)).isEqualTo(issued.certificate());
    }

    @Test
    void refusesClientsWithoutACertificateWhenRequired() throws Exception {
        TestPki apiservers = TestPki.create("apiserver-client-ca");
        WebhookClientConfig config = start(new WebhookServer().addr("localhost")
                .verifyCadata(apiservers.caPem()).verifyMode(VerifyMode.REQUIRED));
        TestPki.Issued client = apiservers.client("O=system:masters,CN=kube-apiserver");
        TestPki.Issued stranger = TestPki.create("other-ca").client("CN=stranger");

        assertThatThrownBy(() -> WebhookClients.post(WebhookClients.trusting(config), config.url() + "/hook", "{}"))
                .isInstanceOf(IOException.class);
        assertThatThrownBy(() -> WebhookClients.post(WebhookClients.withCertificate(config, List.of(stranger.certificate()), stranger.key()),
                config.url() + "/hook", "{}")).isInstanceOf(IOException.class);
        HttpResponse<String> response = WebhookClients.post(
                WebhookClients.withCertificate(config, client.chain(apiservers), client.key()), config.url() + "/hook", "{}");

        assertThat(response.statusCode()).isEqualTo(200);
        Map<String, Object> sslpeer = requests.getFirst().sslpeer();
        assertThat(sslpeer.get("subject")).isEqualTo(List.of(
                List.of(List.of("organizationName", "system:masters")), List.of(List.of("commonName", "kube-apiserver"))));
        assertThat(sslpeer.get("issuer")).isEqualTo(List.of(List.of(List.of("commonName", "apiserver-client-ca"))));
        assertThat(sslpeer.get("version")).isEqualTo(3);
        assertThat((String) sslpeer.get("serialNumber")).isEqualToIgnoringCase(
                String.format("%0" + ((client.certificate().getSerialNumber().toString(16).length() + 1) / 2 * 2) + "x",
                        client.certificate().getSerialNumber()));
        assertThat((String) sslpeer.get("notAfter")).matches("[A-Z][a-z]{2} [ \\d]\\d \\d{2}:\\d{2}:\\d{2} \\d{4} GMT");
    }

    @Test
    void servesClientsWithoutACertificateWhenOptional() throws Exception {
        TestPki apiservers = TestPki.create("apiserver-client-ca");
        Path verifyCafile = dir.resolve("clients-ca.crt");
        Files.writeString(verifyCafile, apiservers.caPem());
        WebhookClientConfig config = start(new WebhookServer().addr("localhost").verifyCafile(verifyCafile));
        TestPki.Issued client = apiservers.client("CN=kube-apiserver");

        HttpResponse<String> anonymous = WebhookClients.post(WebhookClients.trusting(config), config.url() + "/hook", "{}");
        HttpResponse<String> identified = WebhookClients.post(
                WebhookClients.withCertificate(config, client.chain(apiservers), client.key()), config.url() + "/hook", "{}");

        assertThat(anonymous.statusCode()).isEqualTo(200);
        assertThat(identified.statusCode()).isEqualTo(200);
        assertThat(requests).extracting(request -> request.sslpeer().get("subject")).containsExactly(
                null, List.of(List.of(List.of("commonName", "kube-apiserver"))));
    }
}
