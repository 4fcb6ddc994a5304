package io.kopf4j.internal.engines.permissions;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class PreflightTest {
    @Test
    void asksAtMostThirtyTwoQuestionsAtOnceAndNamesWhatIsDenied() throws Exception {
        // An operator of 100 explicit namespaces: 300 questions. The first answers wait until a 33rd question is
        // asked while they are in flight (or 300 ms): without a limit it is, at once; with one, it never is.
        List<Rule> rules = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            rules.add(new Rule("kopf.dev", "kopfexamples", Set.of("list", "watch", "patch"), "ns" + i, false, List.of("test")));
        }
        AtomicInteger inFlight = new AtomicInteger();
        AtomicInteger most = new AtomicInteger();
        CountDownLatch full = new CountDownLatch(33);
        Preflight.Outcome outcome = Preflight.check(rules, (verb, group, resource, namespace) -> {
            most.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
            full.countDown();
            try {
                full.await(300, TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            inFlight.decrementAndGet();
            return !(verb.equals("patch") && namespace.equals("ns7"));
        });
        assertThat(most.get()).isEqualTo(32);
        assertThat(outcome.missing()).singleElement()
                .satisfies(rule -> assertThat(rule.render()).isEqualTo("{apiGroups: [kopf.dev], resources: [kopfexamples], verbs: [patch]}"))
                .satisfies(rule -> assertThat(rule.namespace()).isEqualTo("ns7"));
    }
}
