package io.kopf4j.internal.engines.posting;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class EventSenderTest {
    @Test
    void longMessagesKeepTheirHeadAndTail() {
        String message = "h".repeat(600) + "m".repeat(1000) + "t".repeat(600);
        String cut = EventSender.cut(message);
        assertThat(cut).hasSize(1024).startsWith("h".repeat(510) + "...").endsWith("t".repeat(511));
        assertThat(EventSender.cut("short")).isEqualTo("short");
    }
}
