package io.kopf4j.bench;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

/**
 * A TCP relay between one operator and the API server that counts the bytes each way: what the
 * operator received from the API server and sent to it, as on the network (TLS passes through
 * untouched, so its records count, and so do compressed answers as compressed). Unlike the API
 * server's metrics, it counts watch streams as they flow, and only this operator's connections. The
 * operator finds it through a copy of the cluster's kubeconfig whose server is the relay's address
 * ({@link #kubeconfig}); the API server's certificate holds for 127.0.0.1 at any port.
 *
 * <pre>{@code
 * try (ByteCountingProxy proxy = ByteCountingProxy.start(URI.create(cluster.serverUrl()))) {
 *     Path kubeconfig = proxy.kubeconfig(cluster.kubeconfig(), cluster.serverUrl());
 *     ...   // run the operator with it
 *     long received = proxy.received();
 * }
 * }</pre>
 */
final class ByteCountingProxy implements AutoCloseable {
    private static final int BUFFER = 64 * 1024;

    private final ServerSocket server;
    private final InetSocketAddress target;
    private final LongAdder received = new LongAdder();
    private final LongAdder sent = new LongAdder();
    private final Set<Socket> sockets = ConcurrentHashMap.newKeySet();
    private Path kubeconfig;

    private ByteCountingProxy(ServerSocket server, InetSocketAddress target) {
        this.server = server;
        this.target = target;
    }

    /** Listens on a free port of 127.0.0.1 and relays each connection to the server of this URL. */
    static ByteCountingProxy start(URI serverUrl) throws IOException {
        ServerSocket server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        ByteCountingProxy proxy = new ByteCountingProxy(server, new InetSocketAddress(serverUrl.getHost(), serverUrl.getPort()));
        Thread.ofVirtual().name("bench-proxy-accept").start(proxy::accept);
        return proxy;
    }

    /**
     * A copy of the kubeconfig with this relay in place of {@code serverUrl}, deleted on close; it
     * holds the credentials of the original, so it is the owner's only (as a temporary file is).
     */
    Path kubeconfig(Path original, String serverUrl) throws IOException {
        String relayed = Files.readString(original).replace(serverUrl, "https://127.0.0.1:" + server.getLocalPort());
        kubeconfig = Files.createTempFile("kopf4j-bench-kubeconfig-", ".yaml");
        return Files.writeString(kubeconfig, relayed);
    }

    /** Bytes from the API server to the operator so far. */
    long received() {
        return received.sum();
    }

    /** Bytes from the operator to the API server so far. */
    long sent() {
        return sent.sum();
    }

    private void accept() {
        while (!server.isClosed()) {
            try {
                Socket client = server.accept();
                Socket upstream = new Socket(target.getAddress(), target.getPort());
                sockets.add(client);
                sockets.add(upstream);
                AtomicInteger directions = new AtomicInteger(2);
                Thread.ofVirtual().start(() -> relay(client, upstream, sent, directions));
                Thread.ofVirtual().start(() -> relay(upstream, client, received, directions));
            } catch (IOException e) {
                if (!server.isClosed()) {
                    System.err.println("bench proxy: " + e);
                }
            }
        }
    }

    /**
     * Copies until the source's end, then ends the other side's writes (a half-close passed on);
     * the last of a connection's two directions to end closes both sockets. An error ends both.
     */
    private void relay(Socket from, Socket to, LongAdder counter, AtomicInteger directions) {
        byte[] buffer = new byte[BUFFER];
        try {
            InputStream in = from.getInputStream();
            OutputStream out = to.getOutputStream();
            int read;
            while ((read = in.read(buffer)) >= 0) {
                out.write(buffer, 0, read);
                counter.add(read);
            }
            to.shutdownOutput();
            if (directions.decrementAndGet() > 0) {
                return;
            }
        } catch (IOException closed) {
            // A side went (or close() closed both): nothing more to relay either way.
        }
        for (Socket socket : new Socket[] {from, to}) {
            closeQuietly(socket);
            sockets.remove(socket);
        }
    }

    private static void closeQuietly(Socket socket) {
        try {
            socket.close();
        } catch (IOException ignored) {
            // Closing is all that was wanted.
        }
    }

    @Override
    public void close() throws IOException {
        server.close();
        sockets.forEach(ByteCountingProxy::closeQuietly);
        if (kubeconfig != null) {
            Files.deleteIfExists(kubeconfig);
        }
    }
}
