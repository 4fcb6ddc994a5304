package io.kopf4j.internal.pki;

import java.net.Socket;
import java.security.Principal;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.X509ExtendedKeyManager;

/**
 * The server's one certificate and key, swappable while the server listens: a renewed certificate
 * is used from the next handshake on, without closing the listener or dropping connections
 * (Kopf restarts its server instead). Each material has its own alias, so a handshake that chose
 * the alias before a swap still gets a matching certificate and key after it.
 *
 * <pre>{@code
 * ReloadingKeyManager keys = new ReloadingKeyManager(material);
 * sslContext.init(new KeyManager[]{keys}, trustManagers, null);
 * keys.use(renewedMaterial);
 * }</pre>
 */
public final class ReloadingKeyManager extends X509ExtendedKeyManager {
    private static final String ALIAS_PREFIX = "server-";

    /** One material under its alias: the current one, and the one before for handshakes under way. */
    private record Aliased(String alias, KeyMaterial material) {
    }

    private volatile Aliased current;
    private volatile Aliased previous;
    private int generation;

    /**
     * Presents the material until another is given.
     *
     * @param material what the server presents first
     */
    public ReloadingKeyManager(KeyMaterial material) {
        use(material);
    }

    /**
     * Presents this material from the next handshake on.
     *
     * @param renewed the renewed certificate chain and key
     */
    public synchronized void use(KeyMaterial renewed) {
        previous = current;
        current = new Aliased(ALIAS_PREFIX + generation++, renewed);
    }

    private KeyMaterial byAlias(String alias) {
        Aliased now = current;
        Aliased before = previous;
        if (now.alias().equals(alias)) {
            return now.material();
        }
        return before != null && before.alias().equals(alias) ? before.material() : null;
    }

    @Override
    public String chooseEngineServerAlias(String keyType, Principal[] issuers, SSLEngine engine) {
        return fitting(keyType);
    }

    @Override
    public String chooseServerAlias(String keyType, Principal[] issuers, Socket socket) {
        return fitting(keyType);
    }

    /**
     * The JDK asks by key type for each signature scheme it may use ("EC", "RSA", "RSASSA-PSS"
     * for an RSA key under TLS 1.3); the key answers for its own type only.
     */
    private String fitting(String keyType) {
        Aliased now = current;
        String algorithm = now.material().key().getAlgorithm();
        return algorithm.equals(keyType) || ("RSA".equals(algorithm) && "RSASSA-PSS".equals(keyType)) ? now.alias() : null;
    }

    @Override
    public X509Certificate[] getCertificateChain(String alias) {
        KeyMaterial material = byAlias(alias);
        return material == null ? null : material.chain().toArray(X509Certificate[]::new);
    }

    @Override
    public PrivateKey getPrivateKey(String alias) {
        KeyMaterial material = byAlias(alias);
        return material == null ? null : material.key();
    }

    @Override
    public String[] getServerAliases(String keyType, Principal[] issuers) {
        String alias = fitting(keyType);
        return alias == null ? null : new String[]{alias};
    }

    @Override
    public String[] getClientAliases(String keyType, Principal[] issuers) {
        return null;
    }

    @Override
    public String chooseClientAlias(String[] keyTypes, Principal[] issuers, Socket socket) {
        return null;
    }
}
