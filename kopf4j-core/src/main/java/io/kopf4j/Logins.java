package io.kopf4j;

import io.fabric8.kubernetes.api.model.NamedContext;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.internal.KubeConfigUtils;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Kopf's built-in logins, for use in {@code @On.Login} handlers; without any login handler kopf4j
 * uses {@link #withServiceAccount()} and {@link #withKubeconfig()} by itself. Each returns null when
 * its source is absent, and throws a {@link LoginError} when it is present but broken.
 *
 * <pre>{@code
 * @On.Login
 * public ConnectionInfo login() {
 *     ConnectionInfo kubeconfig = Logins.withKubeconfig();
 *     return kubeconfig == null ? null : kubeconfig.toBuilder().priority(100).build();
 * }
 * }</pre>
 */
public final class Logins {
    /** Kopf's logger of the authentication activity, where users' log filters expect these lines. */
    private static final Logger LOG = LoggerFactory.getLogger("kopf.activities.authentication");
    /** The priority of {@link #withKubeconfig()}: lower than a pod's own service account. */
    public static final int KUBECONFIG_PRIORITY = 10;
    /** The priority of {@link #withServiceAccount()}: it wins over a kubeconfig that happens to be there. */
    public static final int SERVICE_ACCOUNT_PRIORITY = 20;
    private static final Path SERVICE_ACCOUNT = Path.of("/var/run/secrets/kubernetes.io/serviceaccount");

    private Logins() {
    }

    /**
     * The current context of the kubeconfig in {@code $KUBECONFIG} or {@code ~/.kube/config}, read as
     * kubectl does (exec plugins and auth providers included, through fabric8).
     *
     * @return the credentials, or null if there is no kubeconfig
     * @throws LoginError if {@code $KUBECONFIG} names a missing file, or the kubeconfig is invalid
     */
    public static ConnectionInfo withKubeconfig() {
        return withKubeconfig((String) null);
    }

    /**
     * As {@link #withKubeconfig()}, with this context of the kubeconfig.
     *
     * @param context the context's name; null: the current one
     * @return the credentials, or null if there is no kubeconfig
     * @throws LoginError if {@code $KUBECONFIG} names a missing file, or the kubeconfig is invalid
     */
    public static ConnectionInfo withKubeconfig(String context) {
        String variable = System.getenv("KUBECONFIG");
        String files = String.join(", ", Config.getKubeconfigFilenames());
        if (Config.getKubeconfigFilenames().stream().noneMatch(name -> Files.isRegularFile(Path.of(name)))) {
            if (variable != null && !variable.isBlank()) {
                throw new LoginError("kubeconfig file not found: " + variable + " ($KUBECONFIG)");
            }
            return null;
        }
        try {
            Config config = Config.autoConfigure(context);
            return fromConfig(config, KUBECONFIG_PRIORITY, files, config.getFileWithCluster());
        } catch (LoginError e) {
            throw e;
        } catch (RuntimeException e) {
            throw new LoginError("invalid kubeconfig " + files + ": " + e.getMessage(), e);
        }
    }

    /**
     * A context of this kubeconfig file.
     *
     * @param file the kubeconfig
     * @param context the context's name; null: the current one
     * @return the credentials
     * @throws LoginError if the file is missing or invalid, or has no such context
     */
    public static ConnectionInfo withKubeconfig(Path file, String context) {
        if (!Files.isRegularFile(file)) {
            throw new LoginError("kubeconfig file not found: " + file);
        }
        Config config;
        try {
            config = Config.fromKubeconfig(context, Files.readString(file), file.toString());
        } catch (IOException e) {
            throw new LoginError("cannot read kubeconfig " + file + ": " + e.getMessage(), e);
        } catch (RuntimeException e) {
            throw new LoginError("invalid kubeconfig " + file + ": " + e.getMessage(), e);
        }
        if (context != null && (config.getCurrentContext() == null || !context.equals(config.getCurrentContext().getName()))) {
            throw new LoginError("kubeconfig " + file + " has no context '" + context + "'");
        }
        return fromConfig(config, KUBECONFIG_PRIORITY, file.toString(), file.toFile());
    }

    /** {@return the pod's service account, from {@code /var/run/secrets/kubernetes.io/serviceaccount}; null outside a pod} */
    public static ConnectionInfo withServiceAccount() {
        String host = System.getenv("KUBERNETES_SERVICE_HOST");
        String port = System.getenv("KUBERNETES_SERVICE_PORT");
        String server = host == null ? "https://kubernetes.default.svc"
                : "https://" + (host.contains(":") ? "[" + host + "]" : host) + (port == null ? "" : ":" + port);
        return withServiceAccount(SERVICE_ACCOUNT, server);
    }

    /**
     * A service account mounted elsewhere: {@code token}, and optionally {@code ca.crt} and
     * {@code namespace}, in this directory.
     *
     * @param directory where the files are
     * @param server the API server's URL
     * @return the credentials, or null if there is no token
     * @throws LoginError if the files cannot be read
     */
    public static ConnectionInfo withServiceAccount(Path directory, String server) {
        Path token = directory.resolve("token");
        if (!Files.isRegularFile(token)) {
            return null;
        }
        try {
            Path ca = directory.resolve("ca.crt");
            Path namespace = directory.resolve("namespace");
            ConnectionInfo info = ConnectionInfo.builder(server)
                    .token(Files.readString(token).strip())
                    .caPath(Files.isRegularFile(ca) ? ca.toString() : null)
                    .defaultNamespace(Files.isRegularFile(namespace) ? Files.readString(namespace).strip() : null)
                    .priority(SERVICE_ACCOUNT_PRIORITY)
                    .build();
            LOG.debug("Client is configured in cluster with service account.");
            return info;
        } catch (IOException e) {
            throw new LoginError("cannot read the service account in " + directory + ": " + e.getMessage(), e);
        }
    }

    /** @param clusterFile the kubeconfig file that holds the current context's cluster, or null */
    private static ConnectionInfo fromConfig(Config config, int priority, String source, File clusterFile) {
        if (config.getMasterUrl() == null) {
            throw new LoginError("kubeconfig " + source + " names no server");
        }
        String token = config.getOauthToken() != null ? config.getOauthToken()
                : config.getOauthTokenProvider() != null ? config.getOauthTokenProvider().getToken()
                : config.getAutoOAuthToken();
        boolean basic = config.getUsername() != null && config.getPassword() != null;
        ConnectionInfo info = ConnectionInfo.builder(config.getMasterUrl())
                .caData(config.getCaCertData())
                .caPath(config.getCaCertData() == null ? config.getCaCertFile() : null)
                .insecure(config.isTrustCerts())
                .basicAuth(basic ? config.getUsername() : null, basic ? config.getPassword() : null)
                .token(token == null || token.isBlank() ? null : token)
                .certificateData(config.getClientCertData())
                .certificatePath(config.getClientCertData() == null ? config.getClientCertFile() : null)
                .privateKeyData(config.getClientKeyData())
                .privateKeyPath(config.getClientKeyData() == null ? config.getClientKeyFile() : null)
                .defaultNamespace(config.getNamespace())
                .proxyUrl(proxyUrl(config, clusterFile))
                .priority(priority)
                .build();
        LOG.debug("Client is configured via kubeconfig file.");
        return info;
    }

    /**
     * The current cluster's {@code proxy-url}, as Kopf reads it into {@code ConnectionInfo.proxy_url}.
     * Read from the kubeconfig itself: fabric8's own proxy settings also take {@code HTTPS_PROXY} from
     * the environment, which is {@code settings.networking.trustEnv}'s to decide (Kopf's #1278).
     */
    private static String proxyUrl(Config config, File clusterFile) {
        NamedContext context = config.getCurrentContext();
        if (context == null || context.getContext() == null || clusterFile == null || !clusterFile.isFile()) {
            return null;
        }
        String cluster = context.getContext().getCluster();
        return KubeConfigUtils.parseConfig(clusterFile).getClusters().stream()
                .filter(named -> named.getName().equals(cluster) && named.getCluster() != null)
                .map(named -> named.getCluster().getProxyUrl()).filter(Objects::nonNull).findFirst().orElse(null);
    }
}
