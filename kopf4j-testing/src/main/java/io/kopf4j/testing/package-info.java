/**
 * kopf4j's test kit: a real kube-apiserver and etcd on this machine ({@link io.kopf4j.envtest.LocalCluster}),
 * an operator run in the test's JVM ({@link io.kopf4j.testing.KopfRunner}), and the JUnit 5 extension
 * that gives a test both ({@link io.kopf4j.testing.KopfTest}).
 *
 * <pre>{@code
 * @KopfTest(crds = "crd.yaml", handlers = Example.class)
 * class ExampleTest {
 *     @Test
 *     void createsTheExample(KopfHarness kopf) {
 *         kopf.apply(Path.of("obj.yaml"));
 *         kopf.awaitLogged(kopf.about("kopf-example-1") + "Handler 'create' succeeded.");
 *     }
 * }
 * }</pre>
 *
 * <p>Kopf's counterpart: {@code kopf/testing.py} ({@code KopfRunner}).
 */
package io.kopf4j.testing;
