package io.kopf4j.clients;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.kopf4j.OperatorException;
import io.kopf4j.OperatorSettings;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Where the operator's credentials come from, as with kubectl: an explicit kubeconfig file and
 * context, else {@code KUBECONFIG} or {@code ~/.kube/config}, else the in-cluster service account.
 */
public final class Connection {
    private static final int DEFAULT_CONNECT_TIMEOUT_MS = 10_000;

    private Connection() {
    }

    /**
     * A client for the given kubeconfig (null: the default lookup) and context (null: current).
     * fabric8's own retries are off: {@link ApiRetries} retries with the operator's settings, and
     * a cluster that cannot be reached at startup is reported at once.
     */
    public static KubernetesClient connect(Path kubeconfig, String context, OperatorSettings.Networking networking) {
        Config config = kubeconfig == null ? Config.autoConfigure(context) : fromFile(kubeconfig, context);
        Config tuned = new ConfigBuilder(config)
                .withConnectionTimeout(networking.connectTimeout == null ? DEFAULT_CONNECT_TIMEOUT_MS
                        : (int) networking.connectTimeout.toMillis())
                .withRequestTimeout((int) networking.requestTimeout.toMillis())
                .withRequestRetryBackoffLimit(0)
                .build();
        // HTTP/1.1: the JDK's HTTP/2 client fails requests beyond a connection's stream limit (250 on
        // the API server) instead of opening another connection, and every watch holds a stream.
        return new KubernetesClientBuilder().withConfig(tuned)
                .withHttpClientBuilderConsumer(builder -> builder.preferHttp11())
                .build();
    }

    private static Config fromFile(Path kubeconfig, String context) {
        if (!Files.isRegularFile(kubeconfig)) {
            throw new OperatorException("kubeconfig file not found: " + kubeconfig);
        }
        try {
            return Config.fromKubeconfig(context, Files.readString(kubeconfig), kubeconfig.toString());
        } catch (IOException e) {
            throw new OperatorException("cannot read kubeconfig " + kubeconfig + ": " + e.getMessage(), e);
        } catch (RuntimeException e) {
            throw new OperatorException("invalid kubeconfig " + kubeconfig + ": " + e.getMessage(), e);
        }
    }
}
