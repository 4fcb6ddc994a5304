/**
 * The admission webhook servers and tunnels behind the public {@code WebhookServer} and its
 * siblings: the HTTPS listener (a virtual thread per request), one admission exchange, the
 * certificates (generated or given, swapped in on change), the client's certificate, the URLs, the
 * detection of local clusters, and the ngrok agent.
 *
 * <p>Kopf's counterpart: {@code kopf/_kits/webhooks.py}.
 */
package io.kopf4j.kits.webhooks;
