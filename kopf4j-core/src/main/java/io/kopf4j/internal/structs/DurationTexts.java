package io.kopf4j.internal.structs;

import java.math.BigDecimal;
import java.time.Duration;

/**
 * Durations in log lines as Kopf prints them from Python values: seconds as a number (integral
 * seconds without a fraction, as Kopf's default backoff of {@code 60}; others as {@code 1.5}), and
 * a run time as Python's {@code str(timedelta)}: {@code 0:01:05.250000}.
 */
public final class DurationTexts {
    private DurationTexts() {
    }

    /** {@code 60}, {@code 1.5}, {@code 0.25}: the seconds as Kopf prints a handler's timeout or backoff. */
    public static String seconds(Duration duration) {
        BigDecimal seconds = BigDecimal.valueOf(duration.getSeconds()).add(BigDecimal.valueOf(duration.getNano(), 9));
        return seconds.stripTrailingZeros().toPlainString();
    }

    /** Python's {@code str(timedelta)}: {@code H:MM:SS}, {@code H:MM:SS.ffffff}, {@code 2 days, H:MM:SS}. */
    public static String timedelta(Duration duration) {
        long days = duration.toDays();
        long micros = duration.toNanosPart() / 1000;
        String clock = String.format(java.util.Locale.ROOT, "%d:%02d:%02d", duration.toHoursPart(),
                duration.toMinutesPart(), duration.toSecondsPart());
        if (micros != 0) {
            clock += String.format(java.util.Locale.ROOT, ".%06d", micros);
        }
        return days == 0 ? clock : days + (days == 1 ? " day, " : " days, ") + clock;
    }
}
