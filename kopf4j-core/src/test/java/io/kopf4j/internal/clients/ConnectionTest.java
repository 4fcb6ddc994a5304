package io.kopf4j.internal.clients;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.internal.CertUtils;
import io.kopf4j.ConnectionInfo;
import io.kopf4j.LoginError;
import io.kopf4j.OperatorSettings;
import io.kopf4j.internal.pki.CertificateBuilder;
import io.kopf4j.internal.pki.Pem;
import java.nio.charset.StandardCharsets;
import java.security.KeyPair;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Credentials into fabric8's configuration: only what they say, proxies only when trusted. */
class ConnectionTest {
    private static final Map<String, String> PROXIES = Map.of("HTTPS_PROXY", "http://proxy:3128", "no_proxy", "10.0.0.1, .local");

    @Test
    void credentialsDifferingOnlyInTheirTokenShareAConnection() {
        ConnectionInfo a = ConnectionInfo.builder("https://c").caData("Q0E=").token("a").priority(1).build();
        ConnectionInfo b = a.toBuilder().token("b").priority(2).build();
        ConnectionInfo elsewhere = a.toBuilder().server("https://d").build();
        assertThat(Connection.of(a)).isEqualTo(Connection.of(b));
        assertThat(Connection.of(a).carries(elsewhere)).isFalse();
    }

    @Test
    void theConfigurationHasTheConnectionAndTheSettingsButNoCredentials() {
        OperatorSettings settings = new OperatorSettings();
        settings.networking.requestTimeout = Duration.ofSeconds(42);
        ConnectionInfo info = ConnectionInfo.builder("https://c:6443").caData("Q0E=").insecure(true).token("secret")
                .defaultNamespace("ops").build();
        Config config = Connection.of(info).config(settings, null, PROXIES);
        assertThat(config.getMasterUrl()).startsWith("https://c:6443");
        assertThat(config.getCaCertData()).isEqualTo("Q0E=");
        assertThat(config.isTrustCerts()).isTrue();
        assertThat(config.getNamespace()).isEqualTo("ops");
        assertThat(config.getOauthToken()).isNull();
        assertThat(config.getRequestTimeout()).isEqualTo(42_000);
        assertThat(config.getConnectionTimeout()).isEqualTo(10_000);
        assertThat(config.getRequestRetryBackoffLimit()).isZero();
        assertThat(config.getUserAgent()).startsWith("kopf4j/");
        assertThat(config.getHttpsProxy()).as("trust_env is off by default").isNull();
    }

    @Test
    void theHandlersClientRetriesAsOftenAsTheSettingsSayFromTheFirstBackoff() {
        OperatorSettings settings = new OperatorSettings();
        settings.networking.errorBackoffs = List.of(Duration.ofMillis(300), Duration.ofSeconds(1), Duration.ofSeconds(2));
        ConnectionInfo info = ConnectionInfo.builder("https://c:6443").caData("Q0E=").token("secret").build();
        Config config = Connection.of(info).handlerConfig(settings, Map.of());
        assertThat(config.getRequestRetryBackoffLimit()).isEqualTo(3);
        assertThat(config.getRequestRetryBackoffInterval()).isEqualTo(300);
        assertThat(config.getMasterUrl()).startsWith("https://c:6443");

        settings.networking.errorBackoffs = List.of();
        assertThat(Connection.of(info).handlerConfig(settings, Map.of()).getRequestRetryBackoffLimit())
                .as("empty backoffs disable retries").isZero();
    }

    @Test
    void proxiesComeFromTheEnvironmentOnlyWhenTrustedAndTheLoginsOwnWins() {
        OperatorSettings settings = new OperatorSettings();
        settings.networking.trustEnv = true;
        ConnectionInfo info = ConnectionInfo.builder("https://c").token("t").build();
        Config fromEnvironment = Connection.of(info).config(settings, Duration.ofSeconds(3), PROXIES);
        assertThat(fromEnvironment.getHttpsProxy()).isEqualTo("http://proxy:3128");
        assertThat(fromEnvironment.getNoProxy()).containsExactly("10.0.0.1", ".local");
        assertThat(fromEnvironment.getConnectionTimeout()).isEqualTo(3_000);

        Config own = Connection.of(info.toBuilder().proxyUrl("http://own:8080").build()).config(settings, null, PROXIES);
        assertThat(own.getHttpsProxy()).isEqualTo("http://own:8080");
    }

    @Test
    void connectionInfoRefusesConflictingFieldsAsKopfDoes() {
        assertThatThrownBy(() -> ConnectionInfo.builder("https://c").caPath("/ca").caData("Q0E=").build())
                .isInstanceOf(LoginError.class).hasMessage("Both CA path & data are set. Need only one.");
        assertThatThrownBy(() -> ConnectionInfo.builder("https://c").certificatePath("/c").certificateData("Qw==").build())
                .hasMessage("Both certificate path & data are set. Need only one.");
        assertThatThrownBy(() -> ConnectionInfo.builder("https://c").privateKeyPath("/k").privateKeyData("Sw==").build())
                .hasMessage("Both private key path & data are set. Need only one.");
        assertThatThrownBy(() -> ConnectionInfo.builder(" ").build()).hasMessageContaining("needs a server");
        assertThatThrownBy(() -> ConnectionInfo.builder("https://c").basicAuth("user", null).build())
                .hasMessage("Basic authentication needs both a username and a password.");
    }

    @Test
    void theAuthorizationHeaderFollowsKopf() {
        assertThat(ConnectionInfo.builder("https://c").token("t").build().authorization()).isEqualTo("Bearer t");
        assertThat(ConnectionInfo.builder("https://c").token("t").scheme("Token").build().authorization()).isEqualTo("Token t");
        assertThat(ConnectionInfo.builder("https://c").basicAuth("user", "pass").build().authorization())
                .isEqualTo("Basic dXNlcjpwYXNz");
        assertThat(ConnectionInfo.builder("https://c").build().authorization()).isNull();
        assertThat(ConnectionInfo.builder("https://c").token("secret").build().toString()).doesNotContain("secret");
    }

    /**
     * Kopf's {@code decode_to_pem}: {@code *Data} is raw PEM or base64-encoded PEM (also wrapped in
     * lines, as {@code base64} writes it). Each becomes the same connection, and fabric8 makes its
     * trust and key stores of exactly the certificates and the key given.
     */
    @Test
    void dataFieldsTakeRawPemAsWellAsBase64PemAsKopfDoes() throws Exception {
        KeyPair caKeys = CertificateBuilder.ecKeys();
        X509Certificate ca = new CertificateBuilder("CN=cluster-ca", caKeys.getPublic()).ca().selfSigned(caKeys.getPrivate());
        KeyPair keys = CertificateBuilder.rsaKeys();   // fabric8 takes a PKCS#8 key ("PRIVATE KEY") for RSA
        X509Certificate client = new CertificateBuilder("CN=operator", keys.getPublic()).clientAuth()
                .signedBy(ca, caKeys.getPrivate());
        String caPem = Pem.encode(ca);
        String certificatePem = Pem.encode(client);
        String keyPem = Pem.encode(keys.getPrivate());
        ConnectionInfo raw = ConnectionInfo.builder("https://c").caData(caPem).certificateData(certificatePem)
                .privateKeyData(keyPem).build();
        ConnectionInfo encoded = ConnectionInfo.builder("https://c").caData(base64(caPem))
                .certificateData(base64(certificatePem)).privateKeyData(base64(keyPem)).build();
        Base64.Encoder lines = Base64.getMimeEncoder(76, "\n".getBytes(StandardCharsets.US_ASCII));
        ConnectionInfo wrapped = ConnectionInfo.builder("https://c").caData(lines.encodeToString(bytes(caPem)))
                .certificateData(lines.encodeToString(bytes(certificatePem))).privateKeyData(lines.encodeToString(bytes(keyPem)))
                .build();
        assertThat(lines.encodeToString(bytes(caPem))).as("the test's wrapping").contains("\n");

        assertThat(Connection.of(raw)).isEqualTo(Connection.of(encoded)).isEqualTo(Connection.of(wrapped));
        Config config = Connection.of(raw).config(new OperatorSettings(), null, Map.of());
        assertThat(config.getCaCertData()).isEqualTo(base64(caPem));
        assertThat(config.getClientCertData()).isEqualTo(base64(certificatePem));
        assertThat(config.getClientKeyData()).isEqualTo(base64(keyPem));

        KeyStore trusted = CertUtils.createTrustStore(config.getCaCertData(), null, null, null);
        assertThat(trusted.getCertificateAlias(ca)).as("the CA given is trusted").isNotNull();
        KeyStore own = CertUtils.createKeyStore(config.getClientCertData(), null, config.getClientKeyData(), null,
                config.getClientKeyAlgo(), "changeit", null, null);
        String alias = own.aliases().nextElement();
        assertThat(own.getCertificate(alias)).isEqualTo(client);
        assertThat(own.getKey(alias, "changeit".toCharArray()).getEncoded()).isEqualTo(keys.getPrivate().getEncoded());
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.US_ASCII);
    }

    private static String base64(String pem) {
        return Base64.getEncoder().encodeToString(bytes(pem));
    }
}
