package com.example.operator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.kopf4j.testing.KopfHarness;
import io.kopf4j.testing.KopfTest;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * The operator against a real kube-apiserver: kopf4j-testing starts one (with etcd) for the test
 * run, applies the CRD that the build generated from {@link Greeting}, and runs
 * {@link GreetingOperator} in a namespace of this test class, as kopf4j run would.
 */
@KopfTest(crds = "target/classes/META-INF/fabric8/greetings.example.com-v1.yml", handlers = GreetingOperator.class)
class GreetingOperatorTest {
    @Test
    void handlesAGreetingFromCreationToDeletion(KopfHarness kopf) {
        kopf.apply("""
                apiVersion: example.com/v1
                kind: Greeting
                metadata: {name: greeting-1}
                spec: {message: hello}
                """);
        var object = kopf.client().resources(Greeting.class).inNamespace(kopf.namespace()).withName("greeting-1");
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(object.get().getStatus())
                .extracting(GreetingStatus::create).isEqualTo(new GreetingStatus.HandlerResult("created with 1 replica(s): hello")));

        object.edit(changed -> {
            changed.setSpec(new GreetingSpec("hello again", 3));
            return changed;
        });
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(object.get().getStatus())
                .extracting(GreetingStatus::update).isEqualTo(new GreetingStatus.HandlerResult("updated to 3 replica(s): hello again")));

        kopf.delete("example.com/v1", "Greeting", "greeting-1");   // returns once kopf4j's finalizer is released
        kopf.awaitLogged(kopf.about("greeting-1") + "Handler 'delete' succeeded.");
    }

    @Test
    void theApiServerFillsInTheDefaultsOfAGreetingBuiltInJava(KopfHarness kopf) {
        Greeting built = new Greeting();
        built.setMetadata(new ObjectMetaBuilder().withName("greeting-2").build());
        built.setSpec(new GreetingSpec("built in Java", null));   // replicas unset: the CRD's default applies
        var object = kopf.client().resources(Greeting.class).inNamespace(kopf.namespace()).resource(built);
        object.create();
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(object.get().getStatus())
                .extracting(GreetingStatus::create).isEqualTo(new GreetingStatus.HandlerResult("created with 1 replica(s): built in Java")));
    }
}
