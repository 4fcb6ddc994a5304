package io.kopf4j.logback;

import ch.qos.logback.classic.pattern.TargetLengthBasedClassNameAbbreviator;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The names under which log lines show their loggers. kopf4j's own classes log under their Java
 * names (which configure their levels), and are shown under the names of their Kopf modules, as
 * Kopf's users know them ({@code kopf.reactor.queueing}; Kopf's names before it moved its modules
 * under {@code _core} and {@code _cogs}, which are shorter). Kopf's own logger names
 * ({@code kopf.objects}, {@code kopf.activities.startup}) and anybody else's are shown as they are.
 *
 * <p>In the text formats' 20-character column, a longer name is abbreviated as Logback's
 * {@code %logger{20}} does, leading segments to their initials and the last never
 * ({@code k.activities.startup}, {@code i.k.t.LocalCluster}), instead of being cut mid-word.
 *
 * <pre>{@code
 * LoggerNames.shown("io.kopf4j.internal.reactor.queueing.ObjectQueues");   // "kopf.reactor.queueing"
 * LoggerNames.column("io.kopf4j.testing.LocalCluster");            // "i.k.t.LocalCluster"
 * }</pre>
 */
public final class LoggerNames {
    /** The width of the logger column in Kopf's full format. */
    public static final int COLUMN = 20;

    /** kopf4j's packages and classes by their Kopf modules; the longest prefix applies. */
    private static final Map<String, String> KOPF_MODULES = Map.ofEntries(
            Map.entry("io.kopf4j.Operator", "kopf.reactor.running"),
            Map.entry("io.kopf4j.internal.running", "kopf.reactor.running"),
            Map.entry("io.kopf4j.internal.reactor", "kopf.reactor.running"),
            Map.entry("io.kopf4j.internal.reactor.observation", "kopf.reactor.observation"),
            Map.entry("io.kopf4j.internal.reactor.orchestration", "kopf.reactor.orchestration"),
            Map.entry("io.kopf4j.internal.watching", "kopf.clients.watching"),
            Map.entry("io.kopf4j.internal.reactor.queueing", "kopf.reactor.queueing"),
            Map.entry("io.kopf4j.internal.reactor.processing", "kopf.reactor.processing"),
            Map.entry("io.kopf4j.internal.engines.activities", "kopf.engines.activities"),
            Map.entry("io.kopf4j.internal.engines.posting", "kopf.engines.posting"),
            Map.entry("io.kopf4j.internal.engines.probing", "kopf.engines.probing"),
            Map.entry("io.kopf4j.internal.engines.admission", "kopf.engines.admission"),
            Map.entry("io.kopf4j.internal.engines.leadership", "kopf.engines.leadership"),   // kopf4j's own: Kopf has none
            Map.entry("io.kopf4j.internal.clients", "kopf.clients.api"),
            Map.entry("io.kopf4j.cli", "kopf.cli"));

    private static final TargetLengthBasedClassNameAbbreviator ABBREVIATOR = new TargetLengthBasedClassNameAbbreviator(COLUMN);

    private LoggerNames() {
    }

    /**
     * The names already worked out, by logger name: every log line asks, and an operator's loggers
     * are few (Logback keeps each logger for good too), so each name is worked out once rather than
     * matched against every module prefix at each line.
     */
    private static final Map<String, String> SHOWN = new ConcurrentHashMap<>();
    private static final Map<String, String> COLUMNS = new ConcurrentHashMap<>();

    /**
     * The name a logger is shown under, in full (JSON logs): its Kopf module's for kopf4j's classes.
     *
     * @param loggerName the logger's name, e.g. {@code "io.kopf4j.internal.reactor.queueing.ObjectQueues"}
     * @return e.g. {@code "kopf.reactor.queueing"}; the names of loggers outside kopf4j as they are
     */
    public static String shown(String loggerName) {
        return SHOWN.computeIfAbsent(loggerName, LoggerNames::kopfModule);
    }

    /**
     * The name a logger is shown under in the 20-character column of the text formats.
     *
     * @param loggerName the logger's name, e.g. {@code "io.kopf4j.testing.LocalCluster"}
     * @return the shown name, abbreviated as Logback does if longer than 20 characters: {@code "i.k.t.LocalCluster"}
     */
    public static String column(String loggerName) {
        return COLUMNS.computeIfAbsent(loggerName, name -> {
            String shown = shown(name);
            // Logback's abbreviator shortens a name of exactly its target length too, though it fits.
            return shown.length() <= COLUMN ? shown : ABBREVIATOR.abbreviate(shown);
        });
    }

    private static String kopfModule(String loggerName) {
        String kopfModule = null;
        String longestPrefix = "";
        for (Map.Entry<String, String> entry : KOPF_MODULES.entrySet()) {
            String prefix = entry.getKey();
            boolean matches = loggerName.equals(prefix) || loggerName.startsWith(prefix + ".");
            if (matches && prefix.length() > longestPrefix.length()) {
                longestPrefix = prefix;
                kopfModule = entry.getValue();
            }
        }
        return kopfModule == null ? loggerName : kopfModule;
    }
}
