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
import java.time.Duration;

/**
 * Where the operator's credentials come from, as with kubectl: an explicit kubeconfig file and
 * context, else {@code KUBECONFIG} or {@code ~/.kube/config}, else the in-cluster service account.
 */
public final class Connection {
    private static final Duration DEFAULT_CONNECT_TIMEOUT = Duration.ofSeconds(10);

    private Connection() {
    }

    /**
     * A client for the given kubeconfig (null: the default lookup) and context (null: current).
     * fabric8's own retries are off: {@link ApiRetries} retries with the operator's settings, and
     * a cluster that cannot be reached at startup is reported at once.
     */
    public static KubernetesClient connect(Path kubeconfig, String context, OperatorSettings settings) {
        Duration connectTimeout = settings.networking.connectTimeout;
        return connect(kubeconfig, context, settings, connectTimeout == null ? DEFAULT_CONNECT_TIMEOUT : connectTimeout);
    }

    /**
     * A client for watch streams, if their connect timeout differs from other requests' (Kopf's
     * {@code settings.watching.connect_timeout}); otherwise null, and the main client watches too.
     */
    public static KubernetesClient connectForWatching(Path kubeconfig, String context, OperatorSettings settings) {
        Duration timeout = settings.watching.connectTimeout;
        return timeout == null ? null : connect(kubeconfig, context, settings, timeout);
    }

    private static KubernetesClient connect(Path kubeconfig, String context, OperatorSettings settings,
                                            Duration connectTimeout) {
        Config config = kubeconfig == null ? Config.autoConfigure(context) : fromFile(kubeconfig, context);
        Config tuned = new ConfigBuilder(config)
                .withConnectionTimeout((int) connectTimeout.toMillis())
                .withRequestTimeout((int) settings.networking.requestTimeout.toMillis())
                .withRequestRetryBackoffLimit(0)
                .withWatchReconnectInterval((int) settings.watching.reconnectBackoff.toMillis())
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
