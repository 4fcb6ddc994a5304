package io.kopf4j;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.kopf4j.internal.structs.Json;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ObjectViewTest {
    private static final Body BODY = new Body(Json.parseMap("""
            {"apiVersion":"apps/v1","kind":"StatefulSet","metadata":{"name":"db","labels":{"app":"db"}},
             "spec":{"replicas":3,"big":5000000000,"ratio":0.5,"whole":2.0,"image":"postgres","paused":false,
                     "database":{"port":5432,"users":["alice","bob"]},"nothing":null,"extra":"ignored"},
             "status":{"phase":"Ready"}}"""));

    record DatabaseSpec(int replicas, String image, Database database) {
    }

    record Database(int port, List<String> users) {
    }

    @Test
    void gettersReadValuesByDottedPath() {
        Spec spec = BODY.spec();
        assertThat(spec.getInt("replicas", 1)).isEqualTo(3);
        assertThat(spec.getInt("whole", 1)).isEqualTo(2);
        assertThat(spec.getLong("big", 1)).isEqualTo(5_000_000_000L);
        assertThat(spec.getDouble("ratio", 1)).isEqualTo(0.5);
        assertThat(spec.getDouble("replicas", 1)).isEqualTo(3.0);
        assertThat(spec.getString("image", "none")).isEqualTo("postgres");
        assertThat(spec.getBoolean("paused", true)).isFalse();
        assertThat(spec.getInt("database.port", 1)).isEqualTo(5432);
        assertThat(spec.getList("database.users")).containsExactly("alice", "bob");
        assertThat(spec.getMap("database")).containsEntry("port", 5432);
        assertThat(BODY.getString("spec.image", "none")).isEqualTo("postgres");
        assertThat(BODY.meta().getString("labels.app", "none")).isEqualTo("db");
    }

    @Test
    void gettersFallBackWhenTheFieldIsAbsentOrNull() {
        Spec spec = BODY.spec();
        assertThat(spec.getInt("absent", 7)).isEqualTo(7);
        assertThat(spec.getInt("nothing", 7)).isEqualTo(7);
        assertThat(spec.getInt("absent.deeper", 7)).isEqualTo(7);
        assertThat(spec.getString("database.absent", "x")).isEqualTo("x");
        assertThat(spec.getBoolean("absent", true)).isTrue();
        assertThat(spec.getMap("absent")).isEmpty();
        assertThat(spec.getList("absent")).isEmpty();
        assertThat(new Spec(null).getLong("replicas", 9)).isEqualTo(9);
    }

    @Test
    void gettersOfTheWrongTypeFailNamingThePathAndTheTypes() {
        Spec spec = BODY.spec();
        assertThatThrownBy(() -> spec.getInt("image", 1)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("spec.image: expected an int, but the value is a String: \"postgres\"");
        assertThatThrownBy(() -> spec.getInt("ratio", 1))
                .hasMessage("spec.ratio: expected an int, but the value is a Double: 0.5");
        assertThatThrownBy(() -> spec.getInt("big", 1))
                .hasMessage("spec.big: expected an int, but the value is a Long: 5000000000");
        assertThatThrownBy(() -> spec.getString("replicas", ""))
                .hasMessage("spec.replicas: expected a String, but the value is a Integer: 3");
        assertThatThrownBy(() -> spec.getBoolean("image", false))
                .hasMessage("spec.image: expected a boolean, but the value is a String: \"postgres\"");
        assertThatThrownBy(() -> spec.getList("database"))
                .hasMessage("spec.database: expected a List, but the value is a LinkedHashMap: "
                        + "{\"port\":5432,\"users\":[\"alice\",\"bob\"]}");
        assertThatThrownBy(() -> spec.getInt("image.size", 1))
                .hasMessage("spec.image: expected a Map, but the value is a String: \"postgres\"");
        assertThatThrownBy(() -> BODY.getInt("kind", 1))
                .hasMessage("kind: expected an int, but the value is a String: \"StatefulSet\"");
    }

    @Test
    void mapsFromGettersAreReadOnly() {
        assertThatThrownBy(() -> BODY.spec().getMap("database").put("port", 1))
                .isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> BODY.spec().getList("database.users").add("eve"))
                .isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void convertsToARecordIgnoringUnknownFields() {
        DatabaseSpec spec = BODY.spec().as(DatabaseSpec.class);
        assertThat(spec).isEqualTo(new DatabaseSpec(3, "postgres", new Database(5432, List.of("alice", "bob"))));
    }

    @Test
    void convertsACopyAndLeavesTheViewUnchanged() {
        Map<String, Object> converted = BODY.spec().as(Map.class);
        converted.put("replicas", 10);
        @SuppressWarnings("unchecked")
        List<Object> users = (List<Object>) ((Map<String, Object>) converted.get("database")).get("users");
        users.add("eve");
        assertThat(BODY.spec().getInt("replicas", 0)).isEqualTo(3);
        assertThat(BODY.spec().getList("database.users")).containsExactly("alice", "bob");
    }

    @Test
    void convertsTheBodyToFabric8Models() {
        StatefulSet set = BODY.as(StatefulSet.class);
        assertThat(set.getMetadata().getName()).isEqualTo("db");
        assertThat(set.getSpec().getReplicas()).isEqualTo(3);
        Pod pod = new Body(Map.of("kind", "Pod", "metadata", Map.of("name", "p1"),
                "spec", Map.of("containers", List.of(Map.of("name", "main", "image", "nginx"))))).as(Pod.class);
        assertThat(pod.getSpec().getContainers().get(0).getImage()).isEqualTo("nginx");
    }

    @Test
    void aValueThatDoesNotFitTheTypeFailsNamingTheField() {
        Spec spec = new Spec(Map.of("replicas", "three"));
        assertThatThrownBy(() -> spec.as(DatabaseSpec.class)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("cannot convert spec to DatabaseSpec at spec.replicas: "
                        + "Cannot deserialize value of type `int` from String \"three\"");
    }
}
