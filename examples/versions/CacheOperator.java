import io.fabric8.crd.generator.annotation.PreserveUnknownFields;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Version;
import io.kopf4j.On;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Map;

/**
 * A Cache resource that lived through an API change: released as v1alpha1 with its memory as a
 * number of MiB, now v1 with the memory as a Kubernetes quantity and an eviction policy that
 * v1alpha1 has no field for. Both versions are served; v1 is stored. Two methods convert between
 * them, kopf4j serves them as the CRD's conversion webhook, and the handler only ever sees v1,
 * whatever version a client wrote. An eviction policy set in v1 survives an edit made by an old
 * v1alpha1 client (kopf4j keeps it in the annotation {@code kopf4j.dev/conversion-data}).
 *
 *   ./kopf4j run --local-cluster --crd examples/versions/crd.yaml examples/versions/CacheOperator.java
 *   kubectl apply -f examples/versions/cache-v1alpha1.yaml       # written by an old client
 *   kubectl get caches.v1.kopf4j.dev sessions -o yaml           # read as v1: memory: 512Mi
 *   kubectl get caches.v1alpha1.kopf4j.dev sessions -o yaml     # read as v1alpha1: memoryMiB: 512
 */
public class CacheOperator {
    /** What kopf4j writes (the handler's results): kept whole in both versions, and carried by the conversions as it is. */
    @PreserveUnknownFields
    public record CacheStatus() {
    }

    /** The first version; crd.yaml is generated from both: {@code ./kopf4j crd examples/versions/CacheOperator.java}. */
    public static final class V1alpha1 {
        private V1alpha1() {
        }

        @Group("kopf4j.dev")
        @Version(value = "v1alpha1", storage = false, deprecated = true)
        public static class Cache extends CustomResource<Cache.Spec, CacheStatus> implements Namespaced {
            public record Spec(Integer memoryMiB) {
            }
        }
    }

    /** The current version, stored: the hub of the conversions. */
    public static final class V1 {
        private V1() {
        }

        @Group("kopf4j.dev")
        @Version("v1")
        public static class Cache extends CustomResource<Cache.Spec, CacheStatus> implements Namespaced {
            public record Spec(String memory, String evictionPolicy) {
            }
        }
    }

    private static final BigDecimal MIB = BigDecimal.valueOf(1024 * 1024);

    @On.Convert
    public V1.Cache up(V1alpha1.Cache old) {
        Integer memory = old.getSpec().memoryMiB();
        V1.Cache cache = new V1.Cache();
        cache.setSpec(new V1.Cache.Spec(memory == null ? null : memory + "Mi", "allkeys-lru"));
        return cache;
    }

    /** Total for whatever is stored: a memory v1alpha1 cannot say in whole MiB is rounded down (kopf4j keeps the exact one). */
    @On.Convert
    public V1alpha1.Cache down(V1.Cache cache) {
        V1alpha1.Cache old = new V1alpha1.Cache();
        old.setSpec(new V1alpha1.Cache.Spec(mebibytes(cache.getSpec().memory())));
        return old;
    }

    private static Integer mebibytes(String memory) {
        try {
            return memory == null ? null : Quantity.getAmountInBytes(new Quantity(memory)).divide(MIB, RoundingMode.DOWN)
                    .min(BigDecimal.valueOf(Integer.MAX_VALUE)).intValue();
        } catch (IllegalArgumentException | ArithmeticException e) {
            return null;   // not a quantity: v1alpha1 shows no memory, and the way back restores the text
        }
    }

    @On.Create("caches.v1.kopf4j.dev")
    @On.Update("caches.v1.kopf4j.dev")
    public Map<String, Object> size(V1.Cache cache) {
        return Map.of("memory", cache.getSpec().memory(), "evictionPolicy", cache.getSpec().evictionPolicy());
    }
}
