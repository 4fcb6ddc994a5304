package io.kopf4j.kits.webhooks;

import io.kopf4j.internal.pki.CertificateBuilder;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Arrays;
import java.util.regex.Pattern;

/**
 * Where the API server reaches a listening server: Kopf's {@code _get_accessible_addr} and
 * {@code _build_url}.
 *
 * <pre>{@code
 * WebhookUrls.accessibleAddr("0.0.0.0")                      // "127.0.0.1"
 * WebhookUrls.build("https", "::1", 9443, "/hooks")          // "https://[::1]:9443/hooks"
 * }</pre>
 */
final class WebhookUrls {
    private static final Pattern HOST_NAME = Pattern.compile(
            "(?=.{1,253}\\.?$)[A-Za-z0-9_]([A-Za-z0-9_-]{0,61}[A-Za-z0-9_])?(\\.[A-Za-z0-9_]([A-Za-z0-9_-]{0,61}[A-Za-z0-9_])?)*\\.?");

    private WebhookUrls() {
    }

    /**
     * A catch-all listening address made accessible: {@code localhost} for none (all interfaces),
     * {@code 127.0.0.1} for {@code 0.0.0.0}, {@code ::1} for {@code ::}; any other as it is.
     *
     * @param addr the listening address, or null for all interfaces
     * @return the host to reach it at
     */
    public static String accessibleAddr(String addr) {
        if (addr == null) {
            return "localhost";
        }
        if (isUnspecified(addr)) {
            return addr.contains(":") ? "::1" : "127.0.0.1";
        }
        return addr;
    }

    /**
     * {@return whether the address is an IP literal of "any address"} ({@code 0.0.0.0}, {@code ::}),
     * which servers bind to but clients cannot connect to.
     *
     * @param addr a host name or address, e.g. {@code "0.0.0.0"} or {@code "localhost"}
     */
    public static boolean isUnspecified(String addr) {
        return CertificateBuilder.isIpLiteral(addr) && literal(addr).isAnyLocalAddress();
    }

    /**
     * {@return whether the text can be the host of a webhook's URL and its certificate's name}: a DNS
     * name (RFC 1123 labels, underscores allowed as DNS allows them, a trailing dot) or an IPv4 or
     * IPv6 literal; not a URL, nor a host with a port or path.
     *
     * @param host e.g. {@code "op.ops.svc"}, {@code "10.0.0.1"} or {@code "::1"}
     */
    public static boolean isHost(String host) {
        if (host.contains(":")) {
            return CertificateBuilder.isIpLiteral(host) && literalOrNull(host) != null;
        }
        return HOST_NAME.matcher(host).matches();
    }

    private static InetAddress literalOrNull(String address) {
        try {
            return literal(address);
        } catch (IllegalArgumentException notAnAddress) {
            return null;
        }
    }

    /**
     * A URL with IPv6 hosts in brackets and the scheme's default port left out.
     *
     * @param scheme http or https
     * @param host the host name or address
     * @param port the port
     * @param path the path, possibly empty
     * @return the URL
     */
    public static String build(String scheme, String host, int port, String path) {
        String netloc = host.contains(":") && CertificateBuilder.isIpLiteral(host)
                ? "[" + compressedIpv6(host) + "]"
                : host;
        boolean defaultPort = ("http".equals(scheme) && port == 80) || ("https".equals(scheme) && port == 443);
        return scheme + "://" + (defaultPort ? netloc : netloc + ":" + port) + (path == null ? "" : path);
    }

    /** The canonical text of an IPv6 address (RFC 5952, as Python prints it): the longest run of zero groups as "::". */
    static String compressedIpv6(String addr) {
        String[] groups = literal(addr).getHostAddress().replaceAll("%.*$", "").split(":");
        int bestStart = -1;
        int bestLength = 1;
        for (int start = 0; start < groups.length; start++) {
            int length = 0;
            while (start + length < groups.length && "0".equals(groups[start + length])) {
                length++;
            }
            if (length > bestLength) {
                bestStart = start;
                bestLength = length;
            }
        }
        if (bestStart < 0) {
            return String.join(":", groups);
        }
        return String.join(":", Arrays.copyOfRange(groups, 0, bestStart)) + "::"
                + String.join(":", Arrays.copyOfRange(groups, bestStart + bestLength, groups.length));
    }

    /** Parses an IP literal without a DNS lookup (the JDK looks up only names, not literals). */
    private static InetAddress literal(String addr) {
        try {
            return InetAddress.getByName(addr);
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException("not an IP address: " + addr, e);
        }
    }
}
