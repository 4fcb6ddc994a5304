package io.kopf4j.internal.clients;

import io.fabric8.kubernetes.client.KubernetesClientException;
import io.kopf4j.OperatorException;
import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.UnknownHostException;
import java.net.http.HttpTimeoutException;
import java.nio.channels.UnresolvedAddressException;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.net.ssl.SSLException;

/**
 * Says in one line what made an API call fail, its root cause first: fabric8 wraps it in its own
 * {@code An error has occurred.} or {@code Operation: [list] ... failed.} and a long trace, which
 * hide what an operator's user needs to see (refused, unknown host, HTTP 403 and why).
 */
public final class ApiErrors {
    /** The RBAC authorizer's reason: {@code User "u" cannot patch resource "kopfexamples/status" in API group "kopf.dev" in the namespace "ns"}. */
    private static final Pattern DENIED = Pattern.compile(
            "cannot (\\S+) resource \"([^\"]+)\" in API group \"([^\"]*)\"(?: in the namespace \"([^\"]+)\")?");

    private ApiErrors() {
    }

    /**
     * The root cause of a failed API call, for a log line: {@code Connection refused (127.0.0.1:6443)},
     * {@code Unknown host (nohost.invalid:6443)}, {@code HTTP 403: <the API server's message>}.
     *
     * @param server the API server's URL, to name its address when it could not be reached (fabric8's
     *               exceptions do not), or null
     */
    public static String summary(Throwable error, String server) {
        KubernetesClientException http = httpFailure(error);
        if (http != null) {
            String message = serverMessage(http);
            return "HTTP " + http.getCode() + (message == null ? "" : ": " + message) + forbiddenHint(http);
        }
        String reason = reason(error);
        String text = Character.toUpperCase(reason.charAt(0)) + reason.substring(1);
        String address = address(server);
        return firstIoException(error) == null || address == null ? text : text + " (" + address + ")";
    }

    /**
     * After the API server's own message of a 403, kopf4j's hint: the missing permission as a rule's
     * parts, and the command that lists them all; empty for any other failure. For example:
     * {@code  [RBAC: the operator lacks patch on kopfexamples/status (group kopf.dev) in namespace 'ns';
     * kopf4j check-rbac lists what it lacks, kopf4j manifests generates the rules]}.
     */
    public static String forbiddenHint(Throwable error) {
        KubernetesClientException http = httpFailure(error);
        if (http == null || http.getCode() != 403) {
            return "";
        }
        String message = serverMessage(http);
        Matcher denied = message == null ? null : DENIED.matcher(message);
        String what = denied != null && denied.find()
                ? "lacks " + denied.group(1) + " on " + denied.group(2) + " (group " + (denied.group(3).isEmpty() ? "core" : denied.group(3))
                        + ") " + (denied.group(4) == null ? "cluster-wide" : "in namespace '" + denied.group(4) + "'")
                : "lacks a permission";
        return " [RBAC: the operator " + what + "; kopf4j check-rbac lists what it lacks, kopf4j manifests generates the rules]";
    }

    /**
     * Whether the request failed before any answer: no connection, a timeout, a connection that
     * broke (an input or output failure, no HTTP status), rather than the API server saying no.
     */
    public static boolean unreachable(KubernetesClientException e) {
        return e.getCode() <= 0 && firstIoException(e) != null;
    }

    static OperatorException describe(String what, String server, KubernetesClientException e) {
        if (unreachable(e)) {
            return new OperatorException("cannot reach the Kubernetes API at " + server + ": " + reason(e), e);
        }
        if (e.getCode() == 401 || e.getCode() == 403) {
            return new OperatorException("the Kubernetes API at " + server + " refused " + what
                    + " (HTTP " + e.getCode() + "): check the credentials and RBAC", e);
        }
        return new OperatorException(what + " failed at " + server + ": " + e.getMessage(), e);
    }

    /**
     * What went wrong, by the most specific failure in the chain. The JDK's HTTP client reports a
     * refused connection and an unknown host alike, as a {@link ConnectException} without a message:
     * only its own cause tells them apart.
     */
    private static String reason(Throwable error) {
        for (Throwable cause = error; cause != null; cause = next(cause)) {
            if (cause instanceof SSLException tls) {
                return "TLS failed: " + tls.getMessage();
            }
            if (cause instanceof UnresolvedAddressException || cause instanceof UnknownHostException) {
                return "unknown host" + (cause.getMessage() == null ? "" : " " + cause.getMessage());
            }
            if (cause instanceof HttpTimeoutException) {
                return "timed out";
            }
        }
        for (Throwable cause = error; cause != null; cause = next(cause)) {
            if (cause instanceof ConnectException) {
                return "connection refused";
            }
        }
        Throwable root = rootCause(error);
        return root.getClass().getSimpleName() + (root.getMessage() == null ? "" : ": " + root.getMessage());
    }

    /** The API server's own message ({@code Status.message}), else fabric8's text, else null. */
    private static String serverMessage(KubernetesClientException e) {
        String message = e.getStatus() == null ? null : e.getStatus().getMessage();
        return message == null || message.isBlank() ? e.getMessage() : message;
    }

    /** The failure that carries an HTTP status, anywhere in the chain (a watch wraps it in its own). */
    private static KubernetesClientException httpFailure(Throwable error) {
        for (Throwable cause = error; cause != null; cause = next(cause)) {
            if (cause instanceof KubernetesClientException e && e.getCode() > 0) {
                return e;
            }
        }
        return null;
    }

    private static Throwable rootCause(Throwable error) {
        Throwable root = error;
        while (next(root) != null) {
            root = next(root);
        }
        return root;
    }

    private static IOException firstIoException(Throwable error) {
        for (Throwable cause = error; cause != null; cause = next(cause)) {
            if (cause instanceof IOException io) {
                return io;
            }
        }
        return null;
    }

    private static Throwable next(Throwable cause) {
        return cause.getCause() == cause ? null : cause.getCause();
    }

    /** {@code host:port} of the server's URL, with the scheme's port when it names none. */
    private static String address(String server) {
        if (server == null) {
            return null;
        }
        URI uri = URI.create(server);
        if (uri.getHost() == null) {
            return null;
        }
        int port = uri.getPort() >= 0 ? uri.getPort() : "http".equals(uri.getScheme().toLowerCase(Locale.ROOT)) ? 80 : 443;
        return uri.getHost() + ":" + port;
    }
}
