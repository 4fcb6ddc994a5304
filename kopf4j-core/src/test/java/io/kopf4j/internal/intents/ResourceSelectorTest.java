package io.kopf4j.internal.intents;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kopf4j.Resource;
import java.util.List;
import org.junit.jupiter.api.Test;

class ResourceSelectorTest {
    private static Resource resource(String group, String version, String plural, String kind, boolean preferred, String... shortNames) {
        return new Resource(group, version, plural, kind, kind.toLowerCase(), List.of(shortNames), List.of(), List.of("status"),
                true, preferred, List.of("list", "watch", "patch"));
    }

    private final Resource kopfV1 = resource("kopf.dev", "v1", "kopfexamples", "KopfExample", true, "kex");
    private final Resource kopfV2 = resource("kopf.dev", "v2beta1", "kopfexamples", "KopfExample", false, "kex");
    private final Resource pods = resource("", "v1", "pods", "Pod", true, "po");
    private final Resource metricsPods = resource("metrics.k8s.io", "v1beta1", "pods", "PodMetrics", true);
    private final Resource otherExamples = resource("other.dev", "v1", "kopfexamples", "KopfExample", true);

    @Test
    void aMatcherPicksAnyVersionOfAnyGroupButNeverEvents() {
        ResourceSelector kopf = ResourceSelector.matching(resource -> resource.plural().endsWith("examples"));
        Resource coreEvents = resource("", "v1", "events", "Event", true, "ev");
        Resource k8sEvents = resource("events.k8s.io", "v1", "events", "Event", true, "ev");

        assertThat(List.of(kopfV1, kopfV2, pods, metricsPods, otherExamples)).filteredOn(kopf::matches)
                .containsExactly(kopfV1, kopfV2, otherExamples);   // non-preferred versions too, as Kopf's fn
        assertThat(kopf.resolve(List.of(kopfV1, kopfV2, otherExamples)).ambiguous()).isFalse();
        ResourceSelector everything = ResourceSelector.matching(resource -> true);
        assertThat(everything.matches(coreEvents)).isFalse();
        assertThat(everything.matches(k8sEvents)).isFalse();
        assertThat(everything.multiple()).isTrue();
        assertThat(everything.groupsToDiscover()).isNull();
        assertThat(everything.toString()).isEqualTo("resources matching a lambda of ResourceSelectorTest");
        assertThat(everything.kopfRepr()).isEqualTo("Selector(fn=<function a lambda of ResourceSelectorTest>)");
    }

    @Test
    void parsesKopfPositionalForms() {
        assertThat(ResourceSelector.parse("kopfexamples")).isEqualTo(new ResourceSelector(null, null, "kopfexamples"));
        assertThat(ResourceSelector.parse("kopfexamples.kopf.dev")).isEqualTo(new ResourceSelector("kopf.dev", null, "kopfexamples"));
        assertThat(ResourceSelector.parse("pods.v1")).isEqualTo(new ResourceSelector("", "v1", "pods"));
        assertThat(ResourceSelector.parse("x.v1alpha1.example.com")).isEqualTo(new ResourceSelector("example.com", "v1alpha1", "x"));
        assertThat(ResourceSelector.parse("kopf.dev/v1", "kopfexamples")).isEqualTo(new ResourceSelector("kopf.dev", "v1", "kopfexamples"));
        assertThat(ResourceSelector.parse("v1", "pods")).isEqualTo(new ResourceSelector("", "v1", "pods"));
        assertThat(ResourceSelector.parse("apps", "deployments")).isEqualTo(new ResourceSelector("apps", null, "deployments"));
        assertThat(ResourceSelector.parse("kopf.dev", "v1", "kopfexamples")).isEqualTo(new ResourceSelector("kopf.dev", "v1", "kopfexamples"));
    }

    @Test
    void rejectsEmptyNamesAndTooManyParts() {
        assertThatThrownBy(() -> ResourceSelector.parse("")).hasMessageContaining("empty resource name");
        assertThatThrownBy(() -> ResourceSelector.parse("a", "b", "c", "d")).hasMessageContaining("1 to 3 strings");
    }

    @Test
    void matchesPluralSingularKindAndShortNameOfThePreferredVersion() {
        List<Resource> all = List.of(kopfV1, kopfV2, pods);
        for (String name : List.of("kopfexamples", "kopfexample", "KopfExample", "kex")) {
            assertThat(ResourceSelector.parse(name).resolve(all).resources()).containsExactly(kopfV1);
        }
        assertThat(ResourceSelector.parse("kopf.dev", "v2beta1", "kopfexamples").resolve(all).resources()).containsExactly(kopfV2);
    }

    @Test
    void coreGroupWinsAsInKubectl() {
        var resolution = ResourceSelector.parse("pods").resolve(List.of(metricsPods, pods));
        assertThat(resolution.resources()).containsExactly(pods);
        assertThat(resolution.ambiguous()).isFalse();
    }

    @Test
    void sameNameInTwoGroupsIsAmbiguous() {
        assertThat(ResourceSelector.parse("kopfexamples").resolve(List.of(kopfV1, otherExamples)).ambiguous()).isTrue();
        assertThat(ResourceSelector.parse("kopfexamples.kopf.dev").resolve(List.of(kopfV1, otherExamples)).resources())
                .containsExactly(kopfV1);
    }

    @Test
    void everythingAndCategoriesSelectSeveralResourcesButNeverEvents() {
        Resource events = resource("", "v1", "events", "Event", true, "ev");
        Resource newEvents = resource("events.k8s.io", "v1", "events", "Event", true);
        Resource deployments = new Resource("apps", "v1", "deployments", "Deployment", "deployment", List.of("deploy"),
                List.of("all"), List.of(), true, true, List.of("list", "watch", "patch"));
        List<Resource> all = List.of(kopfV1, kopfV2, pods, events, newEvents, deployments);
        var everything = ResourceSelector.parse(io.kopf4j.On.EVERYTHING).resolve(all);
        assertThat(everything.resources()).containsExactly(kopfV1, pods, deployments);
        assertThat(everything.ambiguous()).isFalse();
        assertThat(ResourceSelector.parse("kopf.dev", io.kopf4j.On.EVERYTHING).resolve(all).resources()).containsExactly(kopfV1);
        assertThat(ResourceSelector.parse(io.kopf4j.On.CATEGORY + "all").resolve(all).resources()).containsExactly(deployments);
    }

    @Test
    void unknownNameResolvesToNothing() {
        assertThat(ResourceSelector.parse("kopfexamplez").resolve(List.of(kopfV1, pods)).resources()).isEmpty();
    }

    @Test
    void warningsShowSelectorsAsKopfsRepr() {
        assertThat(ResourceSelector.parse("kopfexamples").kopfRepr()).isEqualTo("Selector(any_name='kopfexamples')");
        assertThat(ResourceSelector.parse("kopfexamples.kopf.dev").kopfRepr())
                .isEqualTo("Selector(group='kopf.dev', any_name='kopfexamples')");
        assertThat(ResourceSelector.parse("kopf.dev", "v1", "kopfexamples").kopfRepr())
                .isEqualTo("Selector(group='kopf.dev', version='v1', any_name='kopfexamples')");
        assertThat(ResourceSelector.parse(io.kopf4j.On.EVERYTHING).kopfRepr()).isEqualTo("Selector(any_name=<Marker.EVERYTHING: 1>)");
        assertThat(ResourceSelector.parse(io.kopf4j.On.CATEGORY + "all").kopfRepr()).isEqualTo("Selector(category='all')");
    }
}
