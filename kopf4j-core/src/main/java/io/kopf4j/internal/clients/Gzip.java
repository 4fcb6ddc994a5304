package io.kopf4j.internal.clients;

import io.fabric8.kubernetes.client.KubernetesClientException;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.zip.GZIPInputStream;

/**
 * An answer's bytes as JSON, whether or not the API server gzipped them: by their first two bytes
 * (gzip's magic number, which no JSON text begins with), so that an answer that some layer already
 * decoded is never decoded twice. By hand because the JDK's HTTP client, under fabric8, does not
 * decode what it asked to be gzipped.
 *
 * <pre>{@code
 * byte[] json = Gzip.decoded(response.body());
 * }</pre>
 */
final class Gzip {
    private static final int MAGIC_FIRST = 0x1f;
    private static final int MAGIC_SECOND = 0x8b;

    private Gzip() {
    }

    /** The bytes decoded if they are gzip's, else the same bytes; null stays null. */
    static byte[] decoded(byte[] body) {
        if (body == null || body.length < 2 || (body[0] & 0xff) != MAGIC_FIRST || (body[1] & 0xff) != MAGIC_SECOND) {
            return body;
        }
        try (GZIPInputStream in = new GZIPInputStream(new ByteArrayInputStream(body))) {
            return in.readAllBytes();
        } catch (IOException e) {
            throw new KubernetesClientException("a gzipped answer of the API server cannot be decoded: " + e.getMessage(), e);
        }
    }
}
