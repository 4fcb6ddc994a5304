package io.kopf4j.internal.clients;

import io.fabric8.kubernetes.client.KubernetesClientException;

/**
 * Annotations of an object that together exceed the API server's limit (256 KiB), so that its body
 * cannot be patched: the message names the biggest, the limit and the remedies. Logged by its class
 * and message when the object is throttled, as Kopf logs an error's repr.
 *
 * <pre>{@code
 * AnnotationsTooLargeError: The annotations are not stored: with kopf.zalando.org/last-handled-configuration
 *     (1500020 bytes) the object's annotations exceed the API server's limit of 262144 bytes in total. ...
 * }</pre>
 */
final class AnnotationsTooLargeError extends KubernetesClientException {
    AnnotationsTooLargeError(String message) {
        super(message);
    }
}
