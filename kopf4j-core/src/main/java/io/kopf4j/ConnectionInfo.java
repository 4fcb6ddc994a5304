package io.kopf4j;

import java.time.Instant;

/**
 * Credentials for the cluster, as returned by {@code @On.Login} handlers: Kopf's
 * {@code kopf.ConnectionInfo}, field for field. Build one with {@link #builder(String)}.
 *
 * <p>{@code caData}, {@code certificateData} and {@code privateKeyData} are PEM as it is (text that
 * starts with {@code -----BEGIN }) or base64-encoded PEM, as in a kubeconfig's {@code *-data} fields
 * (Kopf's {@code decode_to_pem}); the {@code *Path} fields name PEM files instead (one of the two at
 * most). A {@code token} goes into {@code Authorization: <scheme> <token>} (scheme
 * {@code Bearer} by default), {@code username} and {@code password} into Basic authentication.
 *
 * <p>When several login handlers return credentials, those of the highest {@code priority} are
 * used (a random one among equals); credentials past their {@code expiration} are dropped, and a
 * credential the API server rejects (HTTP 401) is dropped and not taken back from a later login.
 *
 * <pre>{@code
 * @On.Login
 * public ConnectionInfo login() throws IOException {
 *     return ConnectionInfo.builder("https://10.0.0.1:6443")
 *             .caPath("/etc/cluster/ca.crt")
 *             .token(Files.readString(Path.of("/etc/cluster/token")).strip())
 *             .expiration(Instant.now().plus(Duration.ofMinutes(50)))
 *             .build();
 * }
 * }</pre>
 *
 * @param server the API server's URL, e.g. {@code https://10.0.0.1:6443}
 * @param caPath a PEM file with the certificate authorities to trust, or null
 * @param caData the same as PEM or base64-encoded PEM, or null
 * @param insecure skip the verification of the server's certificate
 * @param username for Basic authentication, or null
 * @param password for Basic authentication, or null
 * @param scheme the token's scheme in the Authorization header; null means {@code Bearer}
 * @param token the token, or null
 * @param certificatePath a PEM file with the client certificate, or null
 * @param certificateData the same as PEM or base64-encoded PEM, or null
 * @param privateKeyPath a PEM file with the client certificate's key, or null
 * @param privateKeyData the same as PEM or base64-encoded PEM, or null
 * @param defaultNamespace where Kubernetes Events about cluster-scoped objects go; null: {@code default}
 * @param proxyUrl an HTTP(S) proxy to reach the server through, or null
 * @param priority credentials of the highest priority are used first
 * @param expiration when the credentials stop being valid, or null for never
 */
public record ConnectionInfo(String server, String caPath, String caData, boolean insecure, String username,
                             String password, String scheme, String token, String certificatePath,
                             String certificateData, String privateKeyPath, String privateKeyData,
                             String defaultNamespace, String proxyUrl, int priority, Instant expiration) {

    /** Kopf's checks, as a {@link LoginError} naming the conflicting fields. */
    public ConnectionInfo {
        if (server == null || server.isBlank()) {
            throw new LoginError("ConnectionInfo needs a server, e.g. https://10.0.0.1:6443");
        }
        if (caPath != null && caData != null) {
            throw new LoginError("Both CA path & data are set. Need only one.");
        }
        if (certificatePath != null && certificateData != null) {
            throw new LoginError("Both certificate path & data are set. Need only one.");
        }
        if (privateKeyPath != null && privateKeyData != null) {
            throw new LoginError("Both private key path & data are set. Need only one.");
        }
        if ((username == null) != (password == null)) {
            throw new LoginError("Basic authentication needs both a username and a password.");
        }
    }

    /**
     * A builder of credentials for this API server.
     *
     * @param server the API server's URL, e.g. {@code https://10.0.0.1:6443}
     * @return the builder; only the server is required
     */
    public static Builder builder(String server) {
        return new Builder(server);
    }

    /**
     * A builder with this object's values, to change some: e.g. a built-in login with another
     * priority.
     *
     * @return a new builder
     */
    public Builder toBuilder() {
        Builder builder = new Builder(server);
        builder.caPath = caPath;
        builder.caData = caData;
        builder.insecure = insecure;
        builder.username = username;
        builder.password = password;
        builder.scheme = scheme;
        builder.token = token;
        builder.certificatePath = certificatePath;
        builder.certificateData = certificateData;
        builder.privateKeyPath = privateKeyPath;
        builder.privateKeyData = privateKeyData;
        builder.defaultNamespace = defaultNamespace;
        builder.proxyUrl = proxyUrl;
        builder.priority = priority;
        builder.expiration = expiration;
        return builder;
    }

    /** {@return the value of the Authorization header these credentials send, or null (client certificates only)} */
    public String authorization() {
        if (token != null) {
            return (scheme == null ? "Bearer" : scheme) + " " + token;
        }
        if (username != null) {
            return "Basic " + java.util.Base64.getEncoder().encodeToString(
                    (username + ":" + password).getBytes(java.nio.charset.StandardCharsets.UTF_8));
        }
        return null;
    }

    /** Secrets stay out of logs. */
    @Override
    public String toString() {
        return "ConnectionInfo[server=" + server + ", priority=" + priority
                + (token != null ? ", token" : "") + (username != null ? ", user " + username : "")
                + (certificatePath != null || certificateData != null ? ", client certificate" : "")
                + (expiration != null ? ", expires " + expiration : "") + "]";
    }

    /** Builds a {@link ConnectionInfo}; only the server is required. */
    public static final class Builder {
        private String server;
        private String caPath;
        private String caData;
        private boolean insecure;
        private String username;
        private String password;
        private String scheme;
        private String token;
        private String certificatePath;
        private String certificateData;
        private String privateKeyPath;
        private String privateKeyData;
        private String defaultNamespace;
        private String proxyUrl;
        private int priority;
        private Instant expiration;

        private Builder(String server) {
            this.server = server;
        }

        /**
         * The API server, instead of the one given to {@link ConnectionInfo#builder(String)}.
         *
         * @param url the server's URL
         * @return this builder
         */
        public Builder server(String url) {
            this.server = url;
            return this;
        }

        /**
         * A PEM file with the certificate authorities to trust; excludes {@link #caData(String)}.
         *
         * @param path the file's path
         * @return this builder
         */
        public Builder caPath(String path) {
            this.caPath = path;
            return this;
        }

        /**
         * The certificate authorities to trust, as in a kubeconfig's {@code certificate-authority-data};
         * excludes {@link #caPath(String)}.
         *
         * @param pem PEM as it is ({@code -----BEGIN ...}), or base64-encoded PEM
         * @return this builder
         */
        public Builder caData(String pem) {
            this.caData = pem;
            return this;
        }

        /**
         * Skips the verification of the server's certificate: for development clusters only.
         *
         * @param skipVerification true to skip it
         * @return this builder
         */
        public Builder insecure(boolean skipVerification) {
            this.insecure = skipVerification;
            return this;
        }

        /**
         * Basic authentication; both or neither.
         *
         * @param user the user name
         * @param secret the password
         * @return this builder
         */
        public Builder basicAuth(String user, String secret) {
            this.username = user;
            this.password = secret;
            return this;
        }

        /**
         * A token, sent as {@code Authorization: <scheme> <token>}.
         *
         * @param value the token
         * @return this builder
         */
        public Builder token(String value) {
            this.token = value;
            return this;
        }

        /**
         * The token's scheme in the Authorization header; {@code Bearer} by default.
         *
         * @param value the scheme
         * @return this builder
         */
        public Builder scheme(String value) {
            this.scheme = value;
            return this;
        }

        /**
         * A PEM file with the client certificate; excludes {@link #certificateData(String)}.
         *
         * @param path the file's path
         * @return this builder
         */
        public Builder certificatePath(String path) {
            this.certificatePath = path;
            return this;
        }

        /**
         * The client certificate, as in a kubeconfig's {@code client-certificate-data}; excludes
         * {@link #certificatePath(String)}.
         *
         * @param pem PEM as it is ({@code -----BEGIN ...}), or base64-encoded PEM
         * @return this builder
         */
        public Builder certificateData(String pem) {
            this.certificateData = pem;
            return this;
        }

        /**
         * A PEM file with the client certificate's key; excludes {@link #privateKeyData(String)}.
         *
         * @param path the file's path
         * @return this builder
         */
        public Builder privateKeyPath(String path) {
            this.privateKeyPath = path;
            return this;
        }

        /**
         * The client certificate's key, as in a kubeconfig's {@code client-key-data}; excludes
         * {@link #privateKeyPath(String)}.
         *
         * @param pem PEM as it is ({@code -----BEGIN ...}), or base64-encoded PEM
         * @return this builder
         */
        public Builder privateKeyData(String pem) {
            this.privateKeyData = pem;
            return this;
        }

        /**
         * Where Kubernetes Events about cluster-scoped objects go; {@code default} if not set.
         *
         * @param namespace the namespace
         * @return this builder
         */
        public Builder defaultNamespace(String namespace) {
            this.defaultNamespace = namespace;
            return this;
        }

        /**
         * An HTTP(S) proxy to reach the server through.
         *
         * @param url the proxy's URL
         * @return this builder
         */
        public Builder proxyUrl(String url) {
            this.proxyUrl = url;
            return this;
        }

        /**
         * When several login handlers return credentials, those of the highest priority are used
         * (Kopf's built-in logins: kubeconfig 10, service account 20); 0 by default.
         *
         * @param value the priority
         * @return this builder
         */
        public Builder priority(int value) {
            this.priority = value;
            return this;
        }

        /**
         * When the credentials stop being valid: they are dropped then, and the login handlers run
         * again. Never by default.
         *
         * @param when the moment of expiry
         * @return this builder
         */
        public Builder expiration(Instant when) {
            this.expiration = when;
            return this;
        }

        /**
         * Builds the credentials.
         *
         * @return the credentials
         * @throws LoginError if fields conflict (a path and data for the same file, half of Basic authentication)
         */
        public ConnectionInfo build() {
            return new ConnectionInfo(server, caPath, caData, insecure, username, password, scheme, token,
                    certificatePath, certificateData, privateKeyPath, privateKeyData, defaultNamespace, proxyUrl,
                    priority, expiration);
        }
    }
}
