package io.kopf4j.internal.reactor.observation;

import static org.assertj.core.api.Assertions.assertThat;

import io.kopf4j.Resource;
import io.kopf4j.internal.intents.ResourceSelector;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** What is served and what is left out (and why), as Kopf's revise_resources; nothing of it is an error. */
class ResourceInsightsTest {
    private static Resource resource(String group, String plural, String... verbs) {
        return new Resource(group, "v1", plural, plural, plural, List.of(), List.of("mine"), List.of(), true, true,
                List.of(verbs));
    }

    private final Resource widgets = resource("example.com", "widgets", "list", "watch", "patch");
    private final Resource readOnly = resource("example.com", "readonlies", "list", "watch");
    private final Resource statuses = resource("", "componentstatuses", "get", "list");
    private final Resource duplicateA = resource("a.example.com", "twins", "list", "watch", "patch");
    private final Resource duplicateB = resource("b.example.com", "twins", "list", "watch", "patch");
    private final List<Resource> discovered = List.of(widgets, readOnly, statuses, duplicateA, duplicateB);

    private static ResourceInsights revise(List<Resource> discovered, String patchedPlural, String... selectors) {
        return ResourceInsights.revise(List.of(selectors).stream().map(ResourceSelector::parse).toList(), discovered,
                resource -> resource.plural().equals(patchedPlural));
    }

    @Test
    void aSelectorWithoutItsResourceIsUnresolvedAndNamedWithTheReason() {
        ResourceInsights insights = revise(discovered, "", "widgets", "latewidgets", "gadgets.late.example.com");
        assertThat(insights.served()).containsExactly(widgets);
        assertThat(insights.unresolved()).containsExactly(ResourceSelector.parse("latewidgets"),
                ResourceSelector.parse("gadgets.late.example.com"));
        assertThat(insights.unserved()).containsExactly(
                Map.entry(ResourceSelector.parse("latewidgets"), "unresolved: try creating its CRD"),
                Map.entry(ResourceSelector.parse("gadgets.late.example.com"), "unresolved: try creating its CRD"));
    }

    @Test
    void aResourceThatCannotBeWatchedIsSkipped() {
        ResourceInsights insights = revise(discovered, "", "componentstatuses", "widgets");
        assertThat(insights.served()).containsExactly(widgets);
        assertThat(insights.nonWatchable()).containsExactly(statuses);
        assertThat(insights.unserved()).containsExactly(Map.entry(ResourceSelector.parse("componentstatuses"),
                "componentstatuses.v1 is not watchable: its verbs are [get, list]"));
    }

    @Test
    void aResourceThatCannotBePatchedIsSkippedOnlyIfItsHandlersPatch() {
        ResourceInsights watchedOnly = revise(discovered, "", "readonlies");
        assertThat(watchedOnly.served()).containsExactly(readOnly);
        assertThat(watchedOnly.unserved()).isEmpty();

        ResourceInsights patched = revise(discovered, "readonlies", "readonlies");
        assertThat(patched.served()).isEmpty();
        assertThat(patched.nonPatchable()).containsExactly(readOnly);
        assertThat(patched.unserved()).containsExactly(Map.entry(ResourceSelector.parse("readonlies"),
                "readonlies.v1.example.com is not patchable, as its handlers need: its verbs are [list, watch]"));
    }

    @Test
    void anAmbiguousNameIsNotServed() {
        ResourceInsights insights = revise(discovered, "", "twins");
        assertThat(insights.served()).isEmpty();
        assertThat(insights.ambiguous()).containsExactly(Map.entry(ResourceSelector.parse("twins"), List.of(duplicateA, duplicateB)));
        assertThat(insights.unserved()).containsExactly(Map.entry(ResourceSelector.parse("twins"),
                "ambiguous: it matches [twins.v1.a.example.com, twins.v1.b.example.com]; name the group"));
    }

    @Test
    void aSelectorOfSeveralResourcesIsServedIfAnyIsAndUnservedOnlyIfNoneIs() {
        ResourceInsights someWatchable = revise(discovered, "", "category=mine");
        assertThat(someWatchable.served()).containsExactlyInAnyOrder(widgets, readOnly, duplicateA, duplicateB);
        assertThat(someWatchable.nonWatchable()).containsExactly(statuses);
        assertThat(someWatchable.unserved()).isEmpty();

        ResourceInsights noneWatchable = revise(List.of(statuses), "", "category=mine");
        assertThat(noneWatchable.served()).isEmpty();
        assertThat(noneWatchable.unserved()).containsExactly(Map.entry(ResourceSelector.parse("category=mine"),
                "componentstatuses.v1 is not watchable: its verbs are [get, list]"));

        ResourceInsights nothing = revise(List.of(), "", "category=mine");
        assertThat(nothing.unresolved()).isEqualTo(Set.of(ResourceSelector.parse("category=mine")));
    }
}
