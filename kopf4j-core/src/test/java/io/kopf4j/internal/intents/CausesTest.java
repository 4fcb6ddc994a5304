package io.kopf4j.internal.intents;

import static org.assertj.core.api.Assertions.assertThat;

import io.kopf4j.Diff;
import io.kopf4j.Reason;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CausesTest {
    private final Diff none = Diff.between(Map.of(), Map.of());
    private final Diff some = Diff.between(Map.of("a", 1), Map.of("a", 2));

    @Test
    void firstMatchingRuleWins() {
        assertThat(Causes.detect(true, true, true, true, some, true)).isEqualTo(Reason.GONE);
        assertThat(Causes.detect(false, true, false, true, some, false)).isEqualTo(Reason.FREE);
        assertThat(Causes.detect(false, true, true, true, some, false)).isEqualTo(Reason.DELETE);
        assertThat(Causes.detect(false, false, false, false, some, true)).isEqualTo(Reason.CREATE);
        assertThat(Causes.detect(false, false, false, true, none, true)).isEqualTo(Reason.RESUME);
        assertThat(Causes.detect(false, false, false, true, none, false)).isEqualTo(Reason.NOOP);
        assertThat(Causes.detect(false, false, false, true, some, true)).isEqualTo(Reason.UPDATE);
    }
}
