package io.kopf4j.kits.webhooks;

import static org.assertj.core.api.Assertions.assertThat;

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
}
