package io.kopf4j.internal.engines.permissions;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kopf4j.OperatorException;
import io.kopf4j.Resource;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** {@link ApiCatalog#resolve}: one resource by a name written as for kubectl, or an error that names it. */
class ApiCatalogTest {
    private static final Resource CLAIMS = resource("", "persistentvolumeclaims", "PersistentVolumeClaim", "pvc");
    private static final Resource EXAMPLES = resource("kopf.dev", "kopfexamples", "KopfExample", "kex");
    private static final Resource OTHER_EXAMPLES = resource("other.dev", "kopfexamples", "KopfExample", "kex");
    private static final ApiCatalog CATALOG = new ApiCatalog() {
        @Override
        public List<Resource> resources(Set<String> groups) {
            return List.of(CLAIMS, EXAMPLES, OTHER_EXAMPLES).stream()
                    .filter(resource -> groups == null || groups.contains(resource.group())).toList();
        }

        @Override
        public String remedy() {
            return "apply its CRD";
        }
    };

    @Test
    void resolvesAShortNameAPluralAKindAndAGroupQualifiedName() {
        assertThat(CATALOG.resolve("pvc")).isEqualTo(CLAIMS);
        assertThat(CATALOG.resolve("persistentvolumeclaims")).isEqualTo(CLAIMS);
        assertThat(CATALOG.resolve("PersistentVolumeClaim")).isEqualTo(CLAIMS);
        assertThat(CATALOG.resolve("kex.kopf.dev")).isEqualTo(EXAMPLES);
        assertThat(CATALOG.resolve("kopfexamples.v1.other.dev")).isEqualTo(OTHER_EXAMPLES);
    }

    @Test
    void aNameOfSeveralGroupsOrOfNoneIsAnErrorThatNamesIt() {
        assertThatThrownBy(() -> CATALOG.resolve("kex")).isInstanceOf(OperatorException.class)
                .hasMessageStartingWith("resource kex is ambiguous, it matches [kopfexamples.v1.kopf.dev, kopfexamples.v1.other.dev]")
                .hasMessageEndingWith("; name the group");
        assertThatThrownBy(() -> CATALOG.resolve("kexx")).isInstanceOf(OperatorException.class)
                .hasMessage("resource kexx cannot be resolved: apply its CRD");
        assertThatThrownBy(() -> CATALOG.resolve("*")).isInstanceOf(OperatorException.class)
                .hasMessage("resource * selects many resources; name one");
    }

    private static Resource resource(String group, String plural, String kind, String shortName) {
        return new Resource(group, "v1", plural, kind, kind.toLowerCase(java.util.Locale.ROOT), List.of(shortName), List.of(),
                List.of("status"), true, true, List.of());
    }
}
