package io.kopf4j.internal.engines.activities;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.kopf4j.Memo;
import io.kopf4j.OperatorException;
import io.kopf4j.OperatorSettings;
import io.kopf4j.internal.clients.Vault;
import io.kopf4j.internal.clients.VaultClient;
import io.kopf4j.internal.intents.ActivityHandler;
import io.kopf4j.internal.runtime.Engine;
import io.kopf4j.internal.runtime.OperatorThreads;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The operator's API clients, logged in as Kopf does: with the login handlers (Kopf's built-in
 * logins without them), their credentials in the vault, taken afresh on every request and renewed
 * by the login handlers when the API server rejects them. Handlers get a client of their own on
 * the same vault, with fabric8's retries set from the operator's settings (the operator's own
 * requests retry through {@code ApiRetries} instead). An application's own client, if given, is
 * used as it is, for handlers too.
 */
public final class Login implements Engine, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(Login.class);

    private final KubernetesClient client;
    private final KubernetesClient watchClient;
    private final KubernetesClient handlerClient;
    private final Authenticator authenticator;
    private final boolean ownsClient;

    private Login(KubernetesClient client, KubernetesClient watchClient, KubernetesClient handlerClient,
                  Authenticator authenticator, boolean ownsClient) {
        this.client = client;
        this.watchClient = watchClient;
        this.handlerClient = handlerClient;
        this.authenticator = authenticator;
        this.ownsClient = ownsClient;
    }

    /** The application's own client: no login handlers, nothing to close. */
    public static Login withClient(KubernetesClient given) {
        return new Login(given, given, given, null, false);
    }

    /**
     * Runs the login handlers and makes the clients.
     *
     * @param logins the operator's login handlers; empty for Kopf's built-in ones
     * @param kubeconfig for the built-in login, or null for the default places
     * @param context for the built-in login, or null
     * @param lost told when the credentials are lost for good
     */
    public static Login run(List<ActivityHandler> logins, Path kubeconfig, String context, OperatorSettings settings,
                            Memo memo, OperatorThreads threads, Consumer<OperatorException> lost)
            throws InterruptedException {
        if (!logins.isEmpty() && (kubeconfig != null || context != null)) {
            LOG.info("The login handlers provide the credentials; the kubeconfig and context given are not used.");
        }
        Authenticator authenticator = new Authenticator(
                logins.isEmpty() ? Authenticator.fallbackLogins(kubeconfig, context) : logins, settings, memo);
        authenticator.start(threads, lost);
        Vault vault = authenticator.vault();
        KubernetesClient client = VaultClient.create(vault, connection -> connection.client(vault, settings, null));
        Duration watchConnectTimeout = settings.watching.connectTimeout;
        KubernetesClient watchClient = watchConnectTimeout == null ? client
                : VaultClient.create(vault, connection -> connection.client(vault, settings, watchConnectTimeout));
        KubernetesClient handlerClient = VaultClient.create(vault, connection -> connection.handlerClient(vault, settings));
        return new Login(client, watchClient, handlerClient, authenticator, true);
    }

    /** The client for requests. */
    public KubernetesClient client() {
        return client;
    }

    /** The client for watch streams: the same unless {@code settings.watching.connectTimeout} differs. */
    public KubernetesClient watchClient() {
        return watchClient;
    }

    /** The client given to handlers: logged in as the operator, retrying as its settings say. */
    public KubernetesClient handlerClient() {
        return handlerClient;
    }

    /** The clients close at the operator's stop, once nothing uses them any more (see {@link #close()}). */
    @Override
    public void release(boolean handlersEnded) {
        close();
    }

    /** The clients close (those it made), and the renewal of credentials stops. */
    @Override
    public void close() {
        if (authenticator != null) {
            authenticator.close();
        }
        if (ownsClient) {
            client.close();
            if (watchClient != client) {
                watchClient.close();
            }
            handlerClient.close();
        }
    }
}
