import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.kopf4j.Memo;
import io.kopf4j.Meta;
import io.kopf4j.On;
import io.kopf4j.Operator;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Kopf's 12-embedded: an operator inside an application of its own, started and stopped by its
 * {@code main()}, with the application's data given to the handlers in the operator's memo. The
 * application creates and deletes a few KopfExamples while the operator greets them.
 *
 *   kubectl apply -f examples/crd.yaml
 *   ./kopf4j --version         # builds kopf4j-cli/target/kopf4j.jar, once
 *   source scripts/java-home.sh
 *   java -cp kopf4j-cli/target/kopf4j.jar examples/12-embedded/EmbeddedExample.java [namespace]
 *
 * It is an application, launched from its source by {@code java}, not handlers for {@code kopf4j
 * run}; it uses the kubeconfig's current context, as {@code kubectl} does. The handlers take the
 * object's name from {@link Meta}: {@code java} compiles a source file without {@code -parameters},
 * so parameters bound by their names ({@code String name}) are not available.
 *
 * Kopf runs the operator's asyncio loop in a thread of the application, with a ready flag and a stop
 * flag; here {@link Operator#start()} returns once the operator is ready, and {@link Operator#stop()}
 * stops it gracefully. Where Kopf's main() sleeps a second and hopes the handlers have run, this one
 * waits for what it expects: the greeting stored in the object's status, and the object gone.
 */
public class EmbeddedExample {
    private static final Logger LOG = LoggerFactory.getLogger(EmbeddedExample.class);
    private static final int STEPS = 3;
    private static final long WAIT_SECONDS = 30;

    @On.Create(value = "kopfexamples", id = "create_fn")
    public String create(Memo memo, Meta meta, Logger logger) {
        String greeting = String.format((String) memo.get("create_tpl"), meta.name());
        logger.info(greeting);
        return greeting;
    }

    @On.Delete(value = "kopfexamples", id = "delete_fn")
    public void delete(Memo memo, Meta meta, Logger logger) {
        logger.info(String.format((String) memo.get("delete_tpl"), meta.name()));
    }

    public static void main(String[] args) {
        String namespace = args.length > 0 ? args[0] : "default";
        Memo memo = new Memo();
        memo.put("create_tpl", "Hello, %s!");
        memo.put("delete_tpl", "Good bye, %s!");

        // Start the operator and let it initialise.
        LOG.info("Starting the main app.");
        try (Operator operator = Operator.builder().handlers(new EmbeddedExample()).memo(memo).namespaces(namespace).build();
             KubernetesClient client = new KubernetesClientBuilder().build()) {
            operator.start();

            // The operator is active: run the app's activity.
            for (int step = 0; step < STEPS; step++) {
                LOG.info("Do the main app activity here. Step {}/{}.", step + 1, STEPS);
                Resource<GenericKubernetesResource> example = client.genericKubernetesResources("kopf.dev/v1", "KopfExample")
                        .inNamespace(namespace).resource(new GenericKubernetesResourceBuilder()
                                .withApiVersion("kopf.dev/v1").withKind("KopfExample")
                                .withNewMetadata().withName("kopf-example-" + step).endMetadata()
                                .build());
                example.create();
                example.waitUntilCondition(EmbeddedExample::isGreeted, WAIT_SECONDS, TimeUnit.SECONDS);
                example.delete();
                example.waitUntilCondition(Objects::isNull, WAIT_SECONDS, TimeUnit.SECONDS);
            }

            // Ask the operator to terminate gracefully (closing it does too).
            LOG.info("Exiting the main app.");
            operator.stop();
        }
    }

    private static boolean isGreeted(GenericKubernetesResource example) {
        return example != null && example.getAdditionalProperties().get("status") instanceof Map<?, ?> status
                && status.containsKey("create_fn");
    }
}
