package io.kopf4j.internal.engines.permissions;

import static org.assertj.core.api.Assertions.assertThat;

import io.kopf4j.Resource;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class OfflineCatalogTest {
    @Test
    void readsTheCrdsOfAStreamThatOpensWithADocumentSeparator() {
        // Kopf's peering.yaml opens with "---": an empty document before the first CRD.
        assertThat(OfflineCatalog.crds(Path.of("../peering/peering.yaml")))
                .extracting(Resource::group, Resource::plural, Resource::namespaced)
                .contains(org.assertj.core.groups.Tuple.tuple("kopf.dev", "clusterkopfpeerings", false),
                        org.assertj.core.groups.Tuple.tuple("kopf.dev", "kopfpeerings", true));
    }
}
