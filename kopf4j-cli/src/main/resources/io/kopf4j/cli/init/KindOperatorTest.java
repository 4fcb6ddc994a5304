package {{package}};

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.kopf4j.testing.KopfHarness;
import io.kopf4j.testing.KopfTest;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * The operator against a real kube-apiserver: kopf4j-testing starts one (with etcd) for the test
 * run, applies the CRD that the build generated from {@link {{kind}}}, and runs
 * {@link {{kind}}Operator} in a namespace of this test class, as kopf4j run would.
 */
@KopfTest(crds = "target/classes/META-INF/fabric8/{{plural}}.{{group}}-v1.yml", handlers = {{kind}}Operator.class)
class {{kind}}OperatorTest {
    @Test
    void handlesA{{kind}}FromCreationToDeletion(KopfHarness kopf) {
        kopf.apply("""
                apiVersion: {{group}}/{{version}}
                kind: {{kind}}
                metadata: {name: {{singular}}-1}
                spec: {message: hello}
                """);
        var object = kopf.client().resources({{kind}}.class).inNamespace(kopf.namespace()).withName("{{singular}}-1");
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(object.get().getStatus())
                .extracting({{kind}}Status::create).isEqualTo(new {{kind}}Status.HandlerResult("created with 1 replica(s): hello")));

        object.edit(changed -> {
            changed.setSpec(new {{kind}}Spec("hello again", 3));
            return changed;
        });
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(object.get().getStatus())
                .extracting({{kind}}Status::update).isEqualTo(new {{kind}}Status.HandlerResult("updated to 3 replica(s): hello again")));

        kopf.delete("{{group}}/{{version}}", "{{kind}}", "{{singular}}-1");   // returns once kopf4j's finalizer is released
        kopf.awaitLogged(kopf.about("{{singular}}-1") + "Handler 'delete' succeeded.");
    }

    @Test
    void theApiServerFillsInTheDefaultsOfA{{kind}}BuiltInJava(KopfHarness kopf) {
        {{kind}} built = new {{kind}}();
        built.setMetadata(new ObjectMetaBuilder().withName("{{singular}}-2").build());
        built.setSpec(new {{kind}}Spec("built in Java", null));   // replicas unset: the CRD's default applies
        var object = kopf.client().resources({{kind}}.class).inNamespace(kopf.namespace()).resource(built);
        object.create();
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(object.get().getStatus())
                .extracting({{kind}}Status::create).isEqualTo(new {{kind}}Status.HandlerResult("created with 1 replica(s): built in Java")));
    }
}
