package io.kopf4j.clients;

import io.fabric8.kubernetes.client.KubernetesClientException;
import io.kopf4j.OperatorException;
import java.io.IOException;
import java.net.ConnectException;
import java.net.UnknownHostException;
import java.net.http.HttpTimeoutException;
import javax.net.ssl.SSLException;

/** Turns a failed API call into one line that says what failed and where. */
final class ApiErrors {
    private ApiErrors() {
    }

    static OperatorException describe(String what, String server, KubernetesClientException e) {
        if (e.getCode() <= 0) {
            IOException io = firstIoException(e);
            if (io != null) {
                return new OperatorException("cannot reach the Kubernetes API at " + server + ": " + reason(io), e);
            }
        }
        if (e.getCode() == 401 || e.getCode() == 403) {
            return new OperatorException("the Kubernetes API at " + server + " refused " + what
                    + " (HTTP " + e.getCode() + "): check the credentials and RBAC", e);
        }
        return new OperatorException(what + " failed at " + server + ": " + e.getMessage(), e);
    }

    private static String reason(IOException e) {
        if (e instanceof ConnectException) {
            return "connection refused";
        }
        if (e instanceof UnknownHostException) {
            return "unknown host " + e.getMessage();
        }
        if (e instanceof HttpTimeoutException) {
            return "timed out";
        }
        if (e instanceof SSLException) {
            return "TLS failed: " + e.getMessage();
        }
        return e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage());
    }

    /** The most specific I/O failure in the chain (fabric8 wraps the JDK's in its own). */
    private static IOException firstIoException(Throwable e) {
        IOException found = null;
        for (Throwable cause = e; cause != null && cause.getCause() != cause; cause = cause.getCause()) {
            if (cause instanceof IOException io && (found == null || found.getClass() == IOException.class)) {
                found = io;
            }
        }
        return found;
    }
}
