/**
 * The API server: connections and the credentials {@code Vault}, Kopf's retry policy
 * ({@code ApiRetries}), discovery, the patches ({@code ObjectPatching}, through which processing
 * writes; {@code ObjectPatcher} sends them as {@code ApiRequest}s: plain JSON over the client's HTTP
 * connection), the watchers' LISTs and watch streams ({@code ApiStream}, split by
 * {@code JsonLines}), and the API errors' messages. The lowest layer of the event's path.
 *
 * <p>Kopf's counterpart: {@code kopf/_cogs/clients}.
 */
package io.kopf4j.internal.clients;
