package io.kopf4j.engines;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class EventPosterTest {
    @Test
    void longMessagesKeepTheirHeadAndTail() {
        String message = "h".repeat(600) + "m".repeat(1000) + "t".repeat(600);
        String cut = EventPoster.cut(message);
        assertThat(cut).hasSize(1024).startsWith("h".repeat(510) + "...").endsWith("t".repeat(511));
        assertThat(EventPoster.cut("short")).isEqualTo("short");
    }
}
