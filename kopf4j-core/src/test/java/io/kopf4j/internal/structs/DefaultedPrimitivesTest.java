package io.kopf4j.internal.structs;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.generator.annotation.Default;
import io.fabric8.kubernetes.client.CustomResource;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The primitive-with-a-default trap, found in POJOs, their superclasses, maps and custom resources' type arguments. */
class DefaultedPrimitivesTest {
    static class BaseSpec {
        @Default("3")
        long retries;
    }

    static class PoolSpec extends BaseSpec {
        @Default("0.5")
        double ratio;
        @Default("2")
        Integer shards;
        int unannotated;
        static final int CONSTANT = 1;
        Map<String, Limits> limits;
    }

    record Limits(@Default("false") boolean hard) {
    }

    static class Pool extends CustomResource<PoolSpec, Void> {
    }

    @Test
    void everyPrimitiveFieldWithADefaultIsNamedWithItsBoxedType() {
        assertThat(DefaultedPrimitives.of(Pool.class)).extracting(warning -> warning.substring(0, warning.indexOf(':')))
                .containsExactlyInAnyOrder("PoolSpec.ratio is a primitive double with @Default(\"0.5\")",
                        "Limits.hard is a primitive boolean with @Default(\"false\")",
                        "BaseSpec.retries is a primitive long with @Default(\"3\")");
        assertThat(DefaultedPrimitives.of(Limits.class).getFirst()).endsWith("sends false, which the API server keeps"
                + " instead of the default; declare it Boolean to let the default apply");
        assertThat(DefaultedPrimitives.of(Integer.class)).isEmpty();
    }
}
