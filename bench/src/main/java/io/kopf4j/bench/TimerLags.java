package io.kopf4j.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;

/**
 * The timers' lateness as {@code bench/BenchTimers.java}'s probe {@code lags} reports it on Kopf's
 * liveness endpoint, for the time since its previous reading: the runs, the seconds they span, the
 * lags not kept (its array was full), and the lag percentiles in milliseconds (NaN without lags).
 *
 * <pre>{@code
 * // {"lags":{"runs":30012,"seconds":30.0,"dropped":0,"p50":1.2,"p90":3.4,"p99":9.8,"max":15.1}}
 * TimerLags window = TimerLags.parse(liveness.get());
 * double runsPerSecond = window.runsPerSecond();
 * }</pre>
 */
record TimerLags(long runs, double seconds, long dropped, double p50Ms, double p90Ms, double p99Ms, double maxMs) {
    private static final ObjectMapper JSON = new ObjectMapper();

    static TimerLags parse(String json) throws IOException {
        JsonNode lags = JSON.readTree(json).path("lags");
        if (!lags.isObject()) {
            throw new IOException("no probe 'lags' in the liveness endpoint's answer: " + json);
        }
        return new TimerLags(lags.path("runs").asLong(), lags.path("seconds").asDouble(), lags.path("dropped").asLong(),
                millis(lags, "p50"), millis(lags, "p90"), millis(lags, "p99"), millis(lags, "max"));
    }

    double runsPerSecond() {
        return runs / seconds;
    }

    private static double millis(JsonNode lags, String key) {
        return lags.hasNonNull(key) ? lags.get(key).asDouble() : Double.NaN;
    }
}
