package io.kopf4j.internal.engines.activities;

import io.kopf4j.ActivityError;
import io.kopf4j.ActivityFn;
import io.kopf4j.ConnectionInfo;
import io.kopf4j.ErrorsMode;
import io.kopf4j.LoginError;
import io.kopf4j.Logins;
import io.kopf4j.Memo;
import io.kopf4j.OperatorException;
import io.kopf4j.OperatorSettings;
import io.kopf4j.internal.clients.Vault;
import io.kopf4j.internal.intents.ActivityHandler;
import io.kopf4j.internal.runtime.OperatorThreads;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Kopf's authenticator: runs the login handlers into the vault at the start, and again whenever
 * the vault runs out of credentials, with Kopf's log lines (on Kopf's logger of the module, not the
 * activity's). A login handler that fails is retried as its errors mode says, a {@link LoginError}
 * like any exception, while the requests wait for credentials. When a re-login brings nothing, or
 * a login handler fails for good, the operator cannot go on: the failure is reported (and the
 * operator stops).
 *
 * <pre>{@code
 * Authenticator authenticator = new Authenticator(logins, settings, memo);
 * authenticator.start(threads, operator::fail);
 * KubernetesClient client = VaultClient.create(authenticator.vault(), ...);
 * }</pre>
 */
final class Authenticator {
    private static final Logger LOG = LoggerFactory.getLogger(Authenticator.class);

    private final Vault vault = new Vault();
    private final List<ActivityHandler> logins;
    private final OperatorSettings settings;
    private final Memo memo;

    public Authenticator(List<ActivityHandler> logins, OperatorSettings settings, Memo memo) {
        this.logins = logins;
        this.settings = settings;
        this.memo = memo;
    }

    /**
     * Kopf's logins for operators without login handlers: the pod's service account (priority 20)
     * and the kubeconfig (10). As in Kopf, their exceptions ({@link LoginError}s too) are logged and
     * ignored: whichever finds its source logs in. With an explicit kubeconfig file, only that file,
     * and its failure is the login's (errors=PERMANENT): the file named is the option at fault.
     */
    public static List<ActivityHandler> fallbackLogins(Path kubeconfig, String context) {
        if (kubeconfig != null) {
            return List.of(builtIn("login_with_kubeconfig", ErrorsMode.PERMANENT,
                    activity -> Logins.withKubeconfig(kubeconfig, context)));
        }
        return List.of(builtIn("login_with_service_account", ErrorsMode.IGNORED, activity -> Logins.withServiceAccount()),
                builtIn("login_with_kubeconfig", ErrorsMode.IGNORED, activity -> Logins.withKubeconfig(context)));
    }

    private static ActivityHandler builtIn(String id, ErrorsMode errors, ActivityFn function) {
        return new ActivityHandler(ActivityHandler.AUTHENTICATION, id, errors, null, null, null, null,
                function, "'" + id + "' (built in)");
    }

    public Vault vault() {
        return vault;
    }

    /**
     * The initial login, then re-logins in the background on the operator's threads.
     *
     * @param lost called once if the credentials are lost for good
     * @throws LoginError if no login handler returned credentials
     * @throws ActivityError if a login handler failed for good (its errors mode, timeout or retries)
     */
    public void start(OperatorThreads threads, Consumer<OperatorException> lost) throws InterruptedException {
        authenticate("Initial authentication");
        if (vault.isEmpty()) {
            throw new LoginError(Vault.RAN_OUT);
        }
        threads.startService("kopf4j-authenticator", () -> reauthenticate(lost));
    }

    /** Requests waiting for credentials fail; the background re-login ends. */
    public void close() {
        vault.close();
    }

    private void reauthenticate(Consumer<OperatorException> lost) {
        try {
            while (vault.awaitEmptiness()) {
                authenticate("Re-authentication");
                if (vault.isEmpty()) {
                    // No one logs in again after this: requests of the shutdown (peering, Lease, cleanup)
                    // must fail at once instead of waiting for credentials that never come.
                    vault.close();
                    lost.accept(new LoginError(Vault.RAN_OUT));
                    return;
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (OperatorException e) {
            vault.populate(Map.of());
            vault.close();
            lost.accept(e);
        }
    }

    private void authenticate(String title) throws InterruptedException {
        LOG.info("{} has been initiated.", title);
        Map<String, ConnectionInfo> credentials = new LinkedHashMap<>();
        Map<String, Object> results = Activities.run(ActivityHandler.AUTHENTICATION, logins, settings, memo);
        results.forEach((id, result) -> {
            if (!(result instanceof ConnectionInfo info)) {
                throw new LoginError("login handler '" + id + "' returned " + result.getClass().getName()
                        + "; expected a ConnectionInfo, or null for none");
            }
            credentials.put(id, info);
        });
        if (credentials.isEmpty()) {
            LOG.warn("{} has failed: no credentials were retrieved from the login handlers.", title);
        } else {
            LOG.info("{} has finished.", title);
        }
        vault.populate(credentials);
    }
}
