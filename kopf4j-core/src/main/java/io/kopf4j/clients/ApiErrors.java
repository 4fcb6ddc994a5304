package io.kopf4j.clients;

import io.fabric8.kubernetes.client.KubernetesClientException;
import io.kopf4j.OperatorException;
import java.net.ConnectException;
import java.net.UnknownHostException;
import java.net.http.HttpTimeoutException;

/** Turns a failed API call into one line that says what failed and where. */
final class ApiErrors {
    private ApiErrors() {
    }

    static OperatorException describe(String what, String server, KubernetesClientException e) {
        Throwable root = rootCause(e);
        if (e.getCode() == 0 && (root instanceof ConnectException || root instanceof UnknownHostException
                || root instanceof HttpTimeoutException || root instanceof java.io.IOException)) {
            return new OperatorException("cannot reach the Kubernetes API at " + server + ": "
                    + root.getClass().getSimpleName() + (root.getMessage() == null ? "" : ": " + root.getMessage()), e);
        }
        if (e.getCode() == 401 || e.getCode() == 403) {
            return new OperatorException("the Kubernetes API at " + server + " refused " + what
                    + " (HTTP " + e.getCode() + "): check the credentials and RBAC", e);
        }
        return new OperatorException(what + " failed at " + server + ": " + e.getMessage(), e);
    }

    private static Throwable rootCause(Throwable e) {
        Throwable cause = e;
        while (cause.getCause() != null && cause.getCause() != cause) {
            cause = cause.getCause();
        }
        return cause;
    }
}
