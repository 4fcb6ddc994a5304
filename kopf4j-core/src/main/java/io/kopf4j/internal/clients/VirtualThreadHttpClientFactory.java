package io.kopf4j.internal.clients;

import io.fabric8.kubernetes.client.jdkhttp.JdkHttpClientFactory;
import java.net.http.HttpClient;
import java.util.concurrent.Executors;

/**
 * fabric8's JDK HTTP client, with the client's asynchronous work on virtual threads. fabric8's own
 * factory gives it a cached pool of platform threads, which under a burst grows to one thread per
 * request in flight (67 OS threads at 10,000 objects, idle for a minute after) and is what made an
 * operator of 10,000 daemons need 95 OS threads.
 *
 * <pre>{@code
 * new KubernetesClientBuilder().withConfig(config).withHttpClientFactory(new VirtualThreadHttpClientFactory()).build();
 * }</pre>
 */
final class VirtualThreadHttpClientFactory extends JdkHttpClientFactory {
    @Override
    protected HttpClient.Builder createNewHttpClientBuilder() {
        return HttpClient.newBuilder().executor(Executors.newVirtualThreadPerTaskExecutor());
    }
}
