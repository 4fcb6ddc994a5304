package io.kopf4j.internal.engines.peering;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.security.SecureRandom;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Map;
import java.util.random.RandomGenerator;

/**
 * Who this operator is among its peers, as Kopf's {@code detect_own_id}: the {@code POD_ID}
 * environment variable (the pod's name, through the downward API) if set; else
 * {@code user@host/YYYYmmddHHMMSS/abc} for an operator, or {@code user@host} for the manual
 * {@code freeze} and {@code resume} (so that {@code resume} removes what {@code freeze} wrote).
 *
 * <pre>{@code
 * String operatorId = PeerIdentity.detect(false, System.getenv());   // alice@laptop/20261123165000/x7k
 * String manualId = PeerIdentity.detect(true, System.getenv());      // alice@laptop
 * }</pre>
 */
public final class PeerIdentity {
    /** Kopf's alphabet for the random suffix (it has no {@code g}). */
    private static final String SUFFIX_ALPHABET = "abcdefhijklmnopqrstuvwxyz0123456789";
    private static final DateTimeFormatter STARTED = DateTimeFormatter.ofPattern("yyyyMMddHHmmss");
    private static final RandomGenerator RANDOM = new SecureRandom();

    private PeerIdentity() {
    }

    /** The identity from the environment and the machine; {@code manual} for freeze and resume. */
    public static String detect(boolean manual, Map<String, String> environment) {
        String pod = environment.get("POD_ID");
        if (pod != null) {
            return pod;
        }
        String base = System.getProperty("user.name") + "@" + descriptiveHostname();
        if (manual) {
            return base;
        }
        StringBuilder suffix = new StringBuilder();
        for (int i = 0; i < 3; i++) {
            suffix.append(SUFFIX_ALPHABET.charAt(RANDOM.nextInt(SUFFIX_ALPHABET.length())));
        }
        return base + "/" + STARTED.format(ZonedDateTime.now(ZoneOffset.UTC)) + "/" + suffix;
    }

    /**
     * Kopf's {@code get_descriptive_hostname}: the fully qualified name if it is a name (not an
     * address or an ARPA name), else the plain host name; without {@code .local} or {@code .localdomain}.
     */
    static String descriptiveHostname() {
        String hostname;
        String canonical;
        try {
            InetAddress local = InetAddress.getLocalHost();
            hostname = local.getHostName();
            canonical = local.getCanonicalHostName();
        } catch (UnknownHostException e) {
            hostname = System.getenv().getOrDefault("HOSTNAME", "localhost");
            canonical = hostname;
        }
        String chosen = canonical.contains(".") && !canonical.endsWith(".arpa") && !isAddress(canonical) ? canonical : hostname;
        return withoutUselessSuffixes(chosen);
    }

    static String withoutUselessSuffixes(String hostname) {
        String result = hostname;
        while (result.endsWith(".local") || result.endsWith(".localdomain")) {
            result = result.substring(0, result.lastIndexOf('.'));
        }
        return result;
    }

    private static boolean isAddress(String name) {
        return name.contains(":") || name.matches("\\d+\\.\\d+\\.\\d+\\.\\d+");
    }
}
