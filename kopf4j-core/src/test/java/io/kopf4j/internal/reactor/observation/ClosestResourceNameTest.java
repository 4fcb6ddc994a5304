package io.kopf4j.internal.reactor.observation;

import static org.assertj.core.api.Assertions.assertThat;

import io.kopf4j.Resource;
import io.kopf4j.internal.intents.ResourceSelector;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The "did you mean ...?" of an unresolved resource: the closest plural, singular, kind or short name. */
class ClosestResourceNameTest {
    private static final List<String> VERBS = List.of("list", "watch", "patch");
    private static final List<Resource> DISCOVERED = List.of(
            new Resource("", "v1", "pods", "Pod", "", List.of("po"), List.of(), List.of(), true, true, VERBS),
            new Resource("kopf.dev", "v1", "kopfexamples", "KopfExample", "kopfexample", List.of("kex"), List.of(),
                    List.of(), true, true, VERBS));

    private static String closest(String name) {
        return ClosestResourceName.of(ResourceSelector.parse(name), DISCOVERED).orElse(null);
    }

    @Test
    void aTypoOfAPluralSingularKindOrShortNameSuggestsThatName() {
        assertThat(closest("kopfexampless")).isEqualTo("kopfexamples");
        assertThat(closest("kopfexmple")).isEqualTo("kopfexample");
        assertThat(closest("KopfExampl")).isEqualTo("kopfexample");   // case aside: the singular comes before the kind
        assertThat(closest("kez")).isEqualTo("kex");
        assertThat(closest("podss")).isEqualTo("pods");
    }

    @Test
    void aNameFarFromEveryServedNameSuggestsNothing() {
        assertThat(closest("earlywidgets")).isNull();
        assertThat(closest("*")).isNull();
        assertThat(closest("abc")).isNull();
    }
}
