package io.kopf4j.internal.engines.posting;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import org.junit.jupiter.api.Test;

/** Drops are told at once the first time, then counted and told at most once a minute. */
class DropSummaryTest {
    private static Instant at(long seconds) {
        return Instant.EPOCH.plusSeconds(seconds);
    }

    @Test
    void theFirstDropIsToldAtOnceAndTheNextOnesOnceAMinuteWithTheirCount() {
        DropSummary drops = new DropSummary();
        assertThat(drops.nextWarning()).isNull();
        assertThat(drops.dropped()).isTrue();
        assertThat(drops.warn(at(0))).isEqualTo(1);
        for (int i = 0; i < 1000; i++) {
            assertThat(drops.dropped()).isEqualTo(i == 0);
        }
        assertThat(drops.nextWarning()).isEqualTo(at(60));
        assertThat(drops.warn(at(59))).isZero();
        assertThat(drops.warn(at(60))).isEqualTo(1000);
        assertThat(drops.nextWarning()).as("nothing more to tell").isNull();
        assertThat(drops.warn(at(200))).isZero();
        drops.dropped();
        assertThat(drops.warn(at(200))).as("a minute after the last warning").isEqualTo(1);
    }
}
