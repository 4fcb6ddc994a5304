package io.kopf4j.internal.actions;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.kopf4j.HostileValues;
import io.kopf4j.internal.structs.Json;
import java.io.ByteArrayInputStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.instancio.Random;
import org.instancio.junit.Given;
import org.instancio.junit.GivenProvider;
import org.instancio.junit.InstancioExtension;
import org.instancio.junit.InstancioSource;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;

/**
 * Whatever a handler returns: plain JSON within the writer's limits is stored as it is; anything
 * else (too deep, cyclic, the JDK's objects) fails the handler with its type named. Nothing else
 * comes out: no stack overflow, no value that is stored differently from what was returned.
 */
@ExtendWith(InstancioExtension.class)
class HostileResultProperties {
    /** Plain JSON, a cycle, the JDK's objects (alone or inside a map), or a map nested around the writer's limit. */
    static final class Values implements GivenProvider {
        @Override
        public Object provide(ElementContext context) {
            Random random = context.random();
            return switch (random.intRange(0, 4)) {
                case 0 -> HostileValues.json(random, 4);
                case 1 -> {
                    Map<String, Object> map = new LinkedHashMap<>();
                    map.put("self", map);
                    List<Object> list = new ArrayList<>();
                    list.add(List.of(1, list));
                    yield random.trueOrFalse() ? map : list;
                }
                case 2 -> jdkObject(random);
                case 3 -> Map.of("inside", List.of(jdkObject(random)));
                default -> HostileValues.nested(random.intRange(990, 1100));
            };
        }

        private static Object jdkObject(Random random) {
            return random.oneOf(new Thread(() -> { }), new Object(), new ByteArrayInputStream(new byte[1]),
                    Thread.currentThread().getThreadGroup(), HostileResultProperties.class.getClassLoader());
        }
    }

    @ParameterizedTest
    @InstancioSource(samples = 300)
    void aResultIsStoredAsReturnedOrFailsNamingItsType(@Given(Values.class) Object returned) {
        Object stored = null;
        Throwable failure = catchThrowable(() -> Results.storable(returned));
        if (failure == null) {
            stored = Results.storable(returned);
            assertThat(Json.equal(stored, returned)).as("stored as returned: %s", returned).isTrue();
            assertThat(Json.compact(stored)).isNotNull();
        } else {
            assertThat(failure).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageStartingWith("its returned value, a " + returned.getClass().getName() + ", cannot be stored as JSON: ");
        }
    }
}
