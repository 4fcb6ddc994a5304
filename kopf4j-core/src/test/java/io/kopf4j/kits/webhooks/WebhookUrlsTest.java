package io.kopf4j.kits.webhooks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class WebhookUrlsTest {
    @ParameterizedTest
    @CsvSource(nullValues = "NULL", value = {
            "NULL, localhost",
            "0.0.0.0, 127.0.0.1",
            "::, ::1",
            "0:0::0, ::1",
            "127.0.0.1, 127.0.0.1",
            "10.1.2.3, 10.1.2.3",
            "fe80::1, fe80::1",
            "example.com, example.com",
    })
    void catchAllAddressesBecomeAccessibleOnes(String addr, String accessible) {
        assertThat(WebhookUrls.accessibleAddr(addr)).isEqualTo(accessible);
    }

    @ParameterizedTest
    @CsvSource(value = {
            "https, localhost, 443, '', https://localhost",
            "https, localhost, 80, /hooks, https://localhost:80/hooks",
            "http, localhost, 80, /hooks, http://localhost/hooks",
            "http, 127.0.0.1, 443, '', http://127.0.0.1:443",
            "https, ::1, 9443, /x, https://[::1]:9443/x",
            "https, 0:0:0:0:0:0:0:1, 443, '', https://[::1]",
            "https, 2001:db8:0:0:1:0:0:1, 9443, '', https://[2001:db8::1:0:0:1]:9443",
            "https, host.k3d.internal, 9443, /, https://host.k3d.internal:9443/",
    })
    void urlsBracketIpv6AndOmitDefaultPorts(String scheme, String host, int port, String path, String url) {
        assertThat(WebhookUrls.build(scheme, host, port, path)).isEqualTo(url);
    }

    @ParameterizedTest
    @CsvSource(value = {
            "op.ops.svc, true", "host.docker.internal, true", "localhost, true", "example.com., true", "_acme.example.com, true",
            "10.0.0.1, true", "::1, true", "2001:db8::1, true",
            "https://op.ops.svc, false", "op.ops.svc:9443, false", "op.ops.svc/hooks, false", "op ops, false", "'', false",
            "-op.example.com, false", "op..example.com, false", "1:2:3:4:5:6:7:8:9, false", "[::1], false",
    })
    void aHostIsANameOrAnAddressWithoutSchemePortOrPath(String host, boolean valid) {
        assertThat(WebhookUrls.isHost(host)).as(host).isEqualTo(valid);
    }

    @Test
    void aServerRefusesAMalformedHostNamingIt() {
        assertThatThrownBy(() -> new WebhookServer().host("https://op.ops.svc:9443"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("host must be a host name or an IP address, without a scheme, port or path; got 'https://op.ops.svc:9443'");
    }
}
