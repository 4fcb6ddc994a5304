package io.kopf4j.internal.structs;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** Durations printed as Kopf prints its Python values. */
class DurationTextsTest {
    @Test
    void secondsAsPythonNumbers() {
        assertThat(DurationTexts.seconds(Duration.ofSeconds(60))).as("Kopf's default backoff, an int").isEqualTo("60");
        assertThat(DurationTexts.seconds(Duration.ofMillis(1500))).isEqualTo("1.5");
        assertThat(DurationTexts.seconds(Duration.ofMillis(50))).isEqualTo("0.05");
        assertThat(DurationTexts.seconds(Duration.ZERO)).isEqualTo("0");
    }

    @Test
    void runTimesAsPythonTimedeltas() {
        assertThat(DurationTexts.timedelta(Duration.ofMillis(65_250))).isEqualTo("0:01:05.250000");
        assertThat(DurationTexts.timedelta(Duration.ofHours(3))).isEqualTo("3:00:00");
        assertThat(DurationTexts.timedelta(Duration.ofDays(1).plusHours(1).plusMinutes(2).plusSeconds(3).plusNanos(4000)))
                .isEqualTo("1 day, 1:02:03.000004");
        assertThat(DurationTexts.timedelta(Duration.ofDays(2))).isEqualTo("2 days, 0:00:00");
    }
}
