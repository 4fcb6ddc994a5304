package io.kopf4j.internal.clients;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import io.kopf4j.HostileValues;
import io.kopf4j.internal.structs.Json;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.instancio.Random;
import org.instancio.junit.Given;
import org.instancio.junit.GivenProvider;
import org.instancio.junit.InstancioExtension;
import org.instancio.junit.InstancioSource;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;

/**
 * What the API server can send about objects that anyone with {@code create} on a resource writes:
 * any depth (it takes 5,000 levels, the parser 1,000), any size, any unicode, numbers too long for
 * the parser, in buffers cut anywhere. What must hold: every object the parser can read is delivered
 * as it is, in order; every other one is set apart with its name, and nothing after it is lost.
 */
@ExtendWith(InstancioExtension.class)
class HostileStreamProperties {
    /**
     * The object and its spec: the levels above the spec's content. An object is within the parser's
     * limits on its own, however it comes: listed in a page, or in a watch-event.
     */
    private static final int LEVELS_ABOVE = 2;

    /**
     * One object of the stream.
     *
     * @param levels how deep its spec's content is nested
     * @param digits how long a number it holds (more than 1,000: beyond the parser)
     */
    record Written(int index, Object content, int levels, int digits) {
        String name() {
            return "object-" + index;
        }

        boolean readable() {
            return LEVELS_ABOVE + levels <= 1000 && digits <= 1000;
        }

        String objectJson() {
            return "{\"apiVersion\":\"kopf.dev/v1\",\"kind\":\"KopfExample\",\"metadata\":{\"name\":\"" + name()
                    + "\",\"namespace\":\"ns\",\"uid\":\"uid-" + index + "\",\"resourceVersion\":\"" + (100 + index) + "\"},"
                    + "\"spec\":{\"content\":" + Json.compact(content) + ",\"number\":" + "7".repeat(Math.max(1, digits))
                    + ",\"deep\":" + (levels == 0 ? "0" : "[".repeat(levels) + "]".repeat(levels)) + "}}";
        }
    }

    /** Up to 8 objects, of any content, depth around and far beyond the limit, numbers around its length. */
    static final class Streams implements GivenProvider {
        @Override
        public Object provide(ElementContext context) {
            Random random = context.random();
            List<Written> objects = new ArrayList<>();
            for (int index = random.intRange(0, 8) - 1; index >= 0; index--) {
                int levels = switch (random.intRange(0, 2)) {
                    case 0 -> random.intRange(0, 20);
                    case 1 -> random.intRange(990, 1010);
                    default -> random.intRange(1000, 5000);
                };
                int digits = random.trueOrFalse() ? random.intRange(1, 30) : random.intRange(995, 1100);
                objects.add(new Written(objects.size(), HostileValues.json(random, 3), levels, digits));
            }
            return objects;
        }
    }

    /** Where the stream's bytes are cut into buffers. */
    static final class Cuts implements GivenProvider {
        @Override
        public Object provide(ElementContext context) {
            List<Integer> cuts = new ArrayList<>();
            for (int i = context.random().intRange(0, 20); i > 0; i--) {
                cuts.add(context.random().intRange(1, 4096));
            }
            return cuts;
        }
    }

    @ParameterizedTest
    @InstancioSource(samples = 150)
    void aWatchStreamDeliversEveryReadableObjectAndSetsTheOthersApartByName(@Given(Streams.class) List<Written> objects,
            @Given(Cuts.class) List<Integer> cuts) {
        StringBuilder stream = new StringBuilder();
        for (Written object : objects) {
            stream.append("{\"type\":\"MODIFIED\",\"object\":").append(object.objectJson()).append("}\n");
        }
        List<Map<String, Object>> delivered = new ArrayList<>();
        List<UnreadableObject> unreadable = new ArrayList<>();
        JsonLines lines = new JsonLines(delivered::add, unreadable::add);
        byte[] bytes = stream.toString().getBytes(UTF_8);
        int at = 0;
        for (int cut : cuts) {
            int end = Math.min(bytes.length, at + cut);
            lines.feed(ByteBuffer.wrap(bytes, at, end - at).slice());
            at = end;
        }
        lines.feed(ByteBuffer.wrap(bytes, at, bytes.length - at).slice());
        lines.finish();

        assertThat(delivered).extracting(line -> name((Map<?, ?>) line.get("object")))
                .containsExactlyElementsOf(objects.stream().filter(Written::readable).map(Written::name).toList());
        assertThat(unreadable).extracting(UnreadableObject::name)
                .containsExactlyElementsOf(objects.stream().filter(object -> !object.readable()).map(Written::name).toList());
        for (Map<String, Object> line : delivered) {
            Written written = objects.get(Integer.parseInt(name((Map<?, ?>) line.get("object")).substring("object-".length())));
            assertThat(Json.equal(((Map<?, ?>) ((Map<?, ?>) line.get("object")).get("spec")).get("content"), written.content()))
                    .as("the content of %s, as written", written.name()).isTrue();
        }
        assertThat(unreadable).allSatisfy(object -> {
            assertThat(object.type()).isEqualTo("MODIFIED");
            assertThat(object.namespace()).isEqualTo("ns");
            assertThat(object.reason()).isNotBlank();
        });
    }

    @ParameterizedTest
    @InstancioSource(samples = 150)
    void aListingKeepsEveryReadableObjectInOrderAndSetsTheOthersApartByName(@Given(Streams.class) List<Written> objects) {
        String page = "{\"kind\":\"KopfExampleList\",\"metadata\":{\"resourceVersion\":\"99\",\"continue\":\"next\"},\"items\":["
                + String.join(",", objects.stream().map(Written::objectJson).toList()) + "]}";

        ApiRequest.Listing listing = ObjectScan.listing(page.getBytes(UTF_8));

        assertThat(listing.items()).extracting(HostileStreamProperties::name)
                .containsExactlyElementsOf(objects.stream().filter(Written::readable).map(Written::name).toList());
        assertThat(listing.unreadable()).extracting(UnreadableObject::name)
                .containsExactlyElementsOf(objects.stream().filter(object -> !object.readable()).map(Written::name).toList());
        assertThat(listing.resourceVersion()).isEqualTo("99");
        assertThat(listing.continueToken()).isEqualTo("next");
    }

    private static String name(Map<?, ?> object) {
        return String.valueOf(((Map<?, ?>) object.get("metadata")).get("name"));
    }
}
