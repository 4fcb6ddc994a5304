package io.kopf4j.internal.clients;

import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.http.BasicBuilder;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.HttpResponse;
import io.fabric8.kubernetes.client.http.Interceptor;
import io.kopf4j.LoginError;
import java.net.HttpURLConnection;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;

/**
 * Authorizes every request of one connection with the vault's current credentials, in place of
 * fabric8's token interceptor. On HTTP 401 it invalidates the credential the request carried
 * (which may wait for a re-login) and repeats the request with the next credential of this
 * connection, so that token rotation is invisible to the operator; when no credential of this
 * connection is left, the 401 goes to the caller, whose next request picks another connection.
 */
final class AuthorizationInterceptor implements Interceptor {
    /** The name of fabric8's own token interceptor, which this one replaces. */
    static final String NAME = "TOKEN";
    private static final String HEADER = "Authorization";
    /** Re-logins block; fabric8 calls back on its I/O threads, which must not. */
    private static final Executor BLOCKING = command -> Thread.ofVirtual().name("kopf4j-reauthentication").start(command);

    private final Vault vault;
    private final Connection connection;

    AuthorizationInterceptor(Vault vault, Connection connection) {
        this.vault = vault;
        this.connection = connection;
    }

    /**
     * Never sends a request without credentials (it would run as {@code system:anonymous}): with
     * none left, it fails with a LoginError; with others on another connection, with a 401 that
     * {@link ApiRetries} retries there.
     */
    @Override
    public void before(BasicBuilder builder, HttpRequest request, RequestTags tags) {
        Vault.Item item = vault.select(connection::carries);
        if (item == null) {
            if (vault.isEmpty()) {
                throw new LoginError(Vault.RAN_OUT);
            }
            throw new KubernetesClientException("the credentials for " + connection.server()
                    + " were rejected; other credentials take over", HttpURLConnection.HTTP_UNAUTHORIZED, null);
        }
        String authorization = item.info().authorization();
        if (authorization != null) {
            builder.setHeader(HEADER, authorization);
        }
    }

    @Override
    public CompletableFuture<Boolean> afterFailure(BasicBuilder builder, HttpResponse<?> response, RequestTags tags) {
        if (response.code() != HttpURLConnection.HTTP_UNAUTHORIZED) {
            return CompletableFuture.completedFuture(false);
        }
        String rejected = response.request().header(HEADER);
        return CompletableFuture.supplyAsync(() -> {
            try {
                Vault.Item failed = vault.find(info -> connection.carries(info) && Objects.equals(info.authorization(), rejected));
                if (failed != null) {
                    vault.invalidate(failed);
                }
                Vault.Item next = vault.select(connection::carries);
                String authorization = next == null ? null : next.info().authorization();
                if (authorization == null || authorization.equals(rejected)) {
                    return false;
                }
                builder.setHeader(HEADER, authorization);
                return true;
            } catch (LoginError e) {
                return false;   // the 401 goes to the caller; the authenticator reports the lost login
            }
        }, BLOCKING);
    }
}
