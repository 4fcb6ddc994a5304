package io.kopf4j.internal.clients;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class JsonLinesTest {
    private final List<Map<String, Object>> parsed = new ArrayList<>();
    private final List<UnreadableObject> unreadable = new ArrayList<>();
    private final JsonLines lines = new JsonLines(parsed::add, unreadable::add);

    @Test
    void everyCompleteLineOfABufferIsParsedIntoAMap() {
        lines.feed(utf8("{\"type\":\"ADDED\",\"object\":{\"a\":1}}\n{\"type\":\"BOOKMARK\",\"object\":{}}\n"));

        assertThat(parsed).containsExactly(Map.of("type", "ADDED", "object", Map.of("a", 1)),
                Map.of("type", "BOOKMARK", "object", Map.of()));
    }

    @Test
    void aLineSplitAcrossBuffersIsParsedWhenItsEndArrives() {
        lines.feed(utf8("{\"type\":\"ADDED\",\"obj"));
        lines.feed(utf8("ect\":{\"a\":"));
        assertThat(parsed).isEmpty();

        lines.feed(utf8("1}}\n{\"type\":\"DELETED\""));

        assertThat(parsed).containsExactly(Map.of("type", "ADDED", "object", Map.of("a", 1)));
        lines.feed(utf8(",\"object\":{}}\n"));
        assertThat(parsed).hasSize(2).last().isEqualTo(Map.of("type", "DELETED", "object", Map.of()));
    }

    @Test
    void aCharacterSplitBetweenBuffersInTheMiddleOfItsUtf8BytesStaysWhole() {
        byte[] line = "{\"type\":\"ADDED\",\"object\":{\"name\":\"Grüße, 世界\"}}\n".getBytes(UTF_8);
        int split = utf8Offset(line, '世') + 1;   // after the first of the character's three bytes

        lines.feed(ByteBuffer.wrap(Arrays.copyOfRange(line, 0, split)));
        lines.feed(ByteBuffer.wrap(Arrays.copyOfRange(line, split, line.length)));

        assertThat(parsed).containsExactly(Map.of("type", "ADDED", "object", Map.of("name", "Grüße, 世界")));
    }

    @Test
    void aBufferWithAnOffsetIsReadFromItsPositionToItsLimitOnly() {
        byte[] bytes = "xx{\"type\":\"ADDED\"}\nyy".getBytes(UTF_8);
        ByteBuffer slice = ByteBuffer.wrap(bytes, 2, bytes.length - 4).slice();

        lines.feed(slice);

        assertThat(parsed).containsExactly(Map.of("type", "ADDED"));
        assertThat(slice.hasRemaining()).isFalse();
    }

    @Test
    void aDirectBufferIsReadAsWell() {
        byte[] bytes = "{\"type\":\"ADDED\"}\n".getBytes(UTF_8);
        ByteBuffer direct = ByteBuffer.allocateDirect(bytes.length).put(bytes).flip();

        lines.feed(direct);

        assertThat(parsed).containsExactly(Map.of("type", "ADDED"));
    }

    @Test
    void blankLinesAndCarriageReturnsAreSkipped() {
        lines.feed(utf8("\n{\"type\":\"ADDED\"}\r\n\r\n  \n"));

        assertThat(parsed).containsExactly(Map.of("type", "ADDED"));
    }

    @Test
    void aLastLineWithoutItsNewlineIsParsedAtTheEndOfTheStream() {
        lines.feed(utf8("{\"type\":\"ADDED\"}\n{\"type\":\"MODIFIED\"}"));
        assertThat(parsed).hasSize(1);

        lines.finish();

        assertThat(parsed).containsExactly(Map.of("type", "ADDED"), Map.of("type", "MODIFIED"));
    }

    @Test
    void aLineThatIsNotJsonFails() {
        assertThatThrownBy(() -> lines.feed(utf8("<html>Bad gateway</html>\n"))).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void anEventWhoseObjectIsTooDeepGoesApartWithItsIdentityAndTheNextLinesGoOn() {
        String deep = "{\"n\":".repeat(1200) + "{}" + "}".repeat(1200);
        lines.feed(utf8("{\"type\":\"MODIFIED\",\"object\":{\"apiVersion\":\"kopf.dev/v1\",\"kind\":\"KopfExample\","
                + "\"metadata\":{\"name\":\"deep\",\"namespace\":\"ns\",\"uid\":\"u1\",\"resourceVersion\":\"42\","
                + "\"labels\":{\"a\":\"b\"}},\"spec\":" + deep + "}}\n{\"type\":\"ADDED\",\"object\":{}}\n"));

        assertThat(parsed).containsExactly(Map.of("type", "ADDED", "object", Map.of()));
        assertThat(unreadable).singleElement().satisfies(object -> {
            assertThat(object.type()).isEqualTo("MODIFIED");
            assertThat(object.describe()).isEqualTo("ns/deep");
            assertThat(object.uid()).isEqualTo("u1");
            assertThat(object.resourceVersion()).isEqualTo("42");
            assertThat(object.body()).isEqualTo(Map.of("apiVersion", "kopf.dev/v1", "kind", "KopfExample",
                    "metadata", Map.of("name", "deep", "namespace", "ns", "uid", "u1", "resourceVersion", "42")));
            assertThat(object.reason()).startsWith("Document nesting depth (1001) exceeds the maximum allowed (1000");
        });
    }

    @Test
    void aLineWithoutAnEventsTypeAndObjectFailsEvenIfTooDeep() {
        String deep = "[".repeat(1200) + "]".repeat(1200);
        assertThatThrownBy(() -> lines.feed(utf8("{\"unexpected\":" + deep + "}\n"))).isInstanceOf(IllegalArgumentException.class);
        assertThat(unreadable).isEmpty();
    }

    private static ByteBuffer utf8(String text) {
        return ByteBuffer.wrap(text.getBytes(UTF_8));
    }

    private static int utf8Offset(byte[] bytes, char character) {
        byte[] encoded = String.valueOf(character).getBytes(UTF_8);
        for (int i = 0; i + encoded.length <= bytes.length; i++) {
            if (Arrays.equals(bytes, i, i + encoded.length, encoded, 0, encoded.length)) {
                return i;
            }
        }
        throw new IllegalArgumentException(character + " is not in the bytes");
    }
}
