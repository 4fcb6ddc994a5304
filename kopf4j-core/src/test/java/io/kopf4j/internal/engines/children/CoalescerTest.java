package io.kopf4j.internal.engines.children;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class CoalescerTest {
    @Test
    void aBurstCostsOneQueuedRunAndOneMoreAfterTheRunningOne() {
        List<String> dispatched = new ArrayList<>();
        Coalescer runs = new Coalescer(dispatched::add);
        runs.request("p");
        runs.request("p");
        runs.request("q");
        assertThat(dispatched).containsExactly("p", "q");

        runs.started("p");
        runs.request("p");
        runs.request("p");
        assertThat(dispatched).containsExactly("p", "q");
        runs.finished("p");
        assertThat(dispatched).containsExactly("p", "q", "p");

        runs.started("p");
        runs.finished("p");
        assertThat(dispatched).containsExactly("p", "q", "p");
        runs.request("p");
        assertThat(dispatched).containsExactly("p", "q", "p", "p");
        runs.forget("p");
        runs.request("p");
        assertThat(dispatched).containsExactly("p", "q", "p", "p", "p");
    }
}
