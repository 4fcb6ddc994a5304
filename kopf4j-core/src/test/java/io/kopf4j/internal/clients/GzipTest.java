package io.kopf4j.internal.clients;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.client.KubernetesClientException;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;

class GzipTest {
    private static final byte[] JSON = "{\"kind\":\"PodList\",\"items\":[]}".getBytes(StandardCharsets.UTF_8);

    private static byte[] gzipped(byte[] plain) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (GZIPOutputStream out = new GZIPOutputStream(bytes)) {
            out.write(plain);
        }
        return bytes.toByteArray();
    }

    @Test
    void aGzippedAnswerIsDecodedAndAPlainOneKept() throws IOException {
        assertThat(Gzip.decoded(gzipped(JSON))).isEqualTo(JSON);
        assertThat(Gzip.decoded(JSON)).isSameAs(JSON);
        assertThat(Gzip.decoded(new byte[0])).isEmpty();
        assertThat(Gzip.decoded(null)).isNull();
    }

    @Test
    void aBrokenGzippedAnswerIsTheClientsError() throws IOException {
        byte[] cut = Arrays.copyOf(gzipped(JSON), 12);
        assertThatThrownBy(() -> Gzip.decoded(cut)).isInstanceOf(KubernetesClientException.class)
                .hasMessageStartingWith("a gzipped answer of the API server cannot be decoded");
    }
}
