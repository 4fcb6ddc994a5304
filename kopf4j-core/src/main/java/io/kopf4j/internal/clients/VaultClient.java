package io.kopf4j.internal.clients;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.kopf4j.ConnectionInfo;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * The operator's {@link KubernetesClient}: each call goes to the client of the connection that the
 * vault's currently selected credential uses, made on first use and kept until the operator stops
 * (Kopf keeps a session per credential the same way). A request chain started on one connection
 * stays on it; after its credentials are gone, the next call starts on the new one.
 *
 * <p>A dynamic proxy rather than a wrapper class: {@code KubernetesClient} has hundreds of methods,
 * and every one of them must route the same way.
 */
public final class VaultClient implements InvocationHandler {
    private final Vault vault;
    private final Function<Connection, KubernetesClient> factory;
    private final Map<Connection, KubernetesClient> clients = new ConcurrentHashMap<>();
    /**
     * The connection of the credentials selected last: every call of every request (its URL, its
     * HTTP client, its configuration) asks which connection to use, and making one from the
     * credentials re-encodes their PEM data; it took a quarter of an operator's CPU under load.
     */
    private volatile Routed last = new Routed(null, null);

    /** A credentials' connection, as made from them. */
    private record Routed(ConnectionInfo info, Connection connection) {
    }

    private VaultClient(Vault vault, Function<Connection, KubernetesClient> factory) {
        this.vault = vault;
        this.factory = factory;
    }

    /** A client that routes through the vault; closing it closes every connection it made. */
    public static KubernetesClient create(Vault vault, Function<Connection, KubernetesClient> factory) {
        return (KubernetesClient) Proxy.newProxyInstance(KubernetesClient.class.getClassLoader(),
                new Class<?>[]{KubernetesClient.class}, new VaultClient(vault, factory));
    }

    @Override
    public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
        switch (method.getName()) {
            case "close" -> {
                if (method.getParameterCount() == 0) {
                    clients.values().forEach(KubernetesClient::close);
                    clients.clear();
                    return null;
                }
            }
            case "toString" -> {
                if (method.getParameterCount() == 0) {
                    return "VaultClient" + clients.keySet().stream().map(Connection::server).toList();
                }
            }
            case "equals" -> {
                if (method.getParameterCount() == 1) {
                    return proxy == args[0];
                }
            }
            case "hashCode" -> {
                if (method.getParameterCount() == 0) {
                    return System.identityHashCode(proxy);
                }
            }
            default -> {
            }
        }
        Connection connection = connectionOf(vault.select().info());
        KubernetesClient client = clients.computeIfAbsent(connection, factory);
        try {
            return method.invoke(client, args);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }

    /** The connection of these credentials, made again only when the vault selects other ones. */
    private Connection connectionOf(ConnectionInfo info) {
        Routed routed = last;
        if (routed.info() != info) {
            routed = new Routed(info, Connection.of(info));
            last = routed;
        }
        return routed.connection();
    }
}
