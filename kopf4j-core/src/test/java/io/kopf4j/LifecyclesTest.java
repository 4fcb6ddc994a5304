package io.kopf4j;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class LifecyclesTest {
    private final List<String> due = List.of("a", "b", "c");
    private final Map<String, Integer> retries = Map.of("a", 2, "b", 0, "c", 1);

    @Test
    void asapRunsTheHandlerWithTheFewestAttempts() {
        assertThat(Lifecycles.asap().select(due, retries)).containsExactly("b");
    }

    @Test
    void othersAsKopf() {
        assertThat(Lifecycles.allAtOnce().select(due, retries)).containsExactly("a", "b", "c");
        assertThat(Lifecycles.oneByOne().select(due, retries)).containsExactly("a");
        assertThat(Lifecycles.randomized().select(due, retries)).hasSize(1).isSubsetOf(due);
        assertThat(Lifecycles.shuffled().select(due, retries)).containsExactlyInAnyOrderElementsOf(due);
        assertThat(Lifecycles.asap().select(List.of(), retries)).isEmpty();
    }
}
