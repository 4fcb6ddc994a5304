package io.kopf4j.internal.actions;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ResultsTest {
    @Test
    void dataIsStoredAsPlainJsonWithAMapsNullsKept() {
        Map<String, Object> map = new HashMap<>();
        map.put("gone", null);
        map.put("since", Instant.parse("2024-05-01T10:00:00Z"));
        map.put("list", List.of(1, "two", true));

        Map<String, Object> expected = new HashMap<>();
        expected.put("gone", null);
        expected.put("since", "2024-05-01T10:00:00Z");
        expected.put("list", List.of(1, "two", true));
        assertThat(Results.storable(map)).isEqualTo(expected);
        assertThat(Results.storable("text")).isEqualTo("text");
        assertThat(Results.storable(null)).isNull();
    }

    @Test
    void aThreadIsNoDataAndFailsNamingItsType() {
        assertThatThrownBy(() -> Results.storable(new Thread(() -> { }))).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("its returned value, a java.lang.Thread, cannot be stored as JSON: a java.lang.Thread is no data"
                        + " (not a map, a list, a string, a number, a boolean, a record or a POJO of the application's own)");
        assertThatThrownBy(() -> Results.storable(Map.of("inside", new Thread(() -> { }) { })))
                .hasMessageContaining("is no data");
    }

    @Test
    void aCycleFailsAtJacksonsNestingLimitRatherThanTheStack() {
        Map<String, Object> cyclic = new LinkedHashMap<>();
        cyclic.put("self", cyclic);
        List<Object> list = new ArrayList<>();
        list.add(list);

        assertThatThrownBy(() -> Results.storable(cyclic)).hasMessageStartingWith(
                "its returned value, a java.util.LinkedHashMap, cannot be stored as JSON: Document nesting depth (1001) exceeds");
        assertThatThrownBy(() -> Results.storable(list)).hasMessageContaining("nesting depth");
    }
}
