package io.kopf4j.internal.clients;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ObjectScanTest {
    private static final String DEEP = "{\"n\":".repeat(1100) + "{}" + "}".repeat(1100);

    private static String item(String name, String spec) {
        return "{\"metadata\":{\"name\":\"" + name + "\",\"namespace\":\"ns\",\"uid\":\"uid-" + name
                + "\",\"resourceVersion\":\"7\"},\"spec\":" + spec + "}";
    }

    @Test
    void aReadablePageIsParsedWhole() {
        ApiRequest.Listing page = ObjectScan.listing(("{\"metadata\":{\"resourceVersion\":\"10\",\"continue\":\"\"},\"items\":["
                + item("a", "{}") + "]}").getBytes(UTF_8));

        assertThat(page.items()).extracting(o -> (Object) ((Map<?, ?>) o.get("metadata")).get("name")).containsExactly("a");
        assertThat(page.resourceVersion()).isEqualTo("10");
        assertThat(page.continueToken()).isNull();
        assertThat(page.unreadable()).isEmpty();
    }

    @Test
    void oneTooDeepItemIsLeftOutWithItsIdentityAndTheOthersAreKeptInOrder() {
        ApiRequest.Listing page = ObjectScan.listing(("{\"kind\":\"KopfExampleList\",\"metadata\":{\"resourceVersion\":\"10\","
                + "\"continue\":\"next\"},\"items\":[" + item("a", "{}") + "," + item("deep", DEEP) + "," + item("b", "[1,2]")
                + "]}").getBytes(UTF_8));

        assertThat(page.items()).extracting(o -> (Object) ((Map<?, ?>) o.get("metadata")).get("name")).containsExactly("a", "b");
        assertThat(page.items().get(1).get("spec")).isEqualTo(List.of(1, 2));
        assertThat(page.resourceVersion()).isEqualTo("10");
        assertThat(page.continueToken()).isEqualTo("next");
        assertThat(page.unreadable()).singleElement().satisfies(object -> {
            assertThat(object.type()).isNull();
            assertThat(object.describe()).isEqualTo("ns/deep");
            assertThat(object.resourceVersion()).isEqualTo("7");
            assertThat(object.reason()).contains("nesting depth");
        });
    }

    @Test
    void aNumberLongerThanTheParserTakesIsUnreadableToo() {
        ApiRequest.Listing page = ObjectScan.listing(("{\"metadata\":{},\"items\":[" + item("long", "{\"x\":" + "9".repeat(2000) + "}")
                + "]}").getBytes(UTF_8));

        assertThat(page.items()).isEmpty();
        assertThat(page.unreadable()).singleElement().satisfies(object -> assertThat(object.name()).isEqualTo("long"));
    }

    @Test
    void aPageThatIsNoJsonFailsAsAWhole() {
        assertThatThrownBy(() -> ObjectScan.listing("<html>Bad gateway</html>".getBytes(UTF_8)))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
