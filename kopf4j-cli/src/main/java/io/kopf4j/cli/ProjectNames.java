package io.kopf4j.cli;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import javax.lang.model.SourceVersion;

/**
 * The names of a project that {@code kopf4j init} makes: the custom resource's group, version,
 * kind and plural, and the Java package and Maven coordinates. Those not given are derived from the
 * directory and from each other; each is checked, and a bad one fails with one error naming its
 * option.
 *
 * <pre>{@code
 * ProjectNames names = ProjectNames.of(Path.of("memcached-operator"), null, null, null, null, null, null, null);
 * names.kind();          // "Memcached" (the directory's name without "-operator")
 * names.plural();        // "memcacheds"
 * names.javaPackage();   // "com.example.operator" (from the group, example.com)
 * }</pre>
 *
 * @param group the API group, a DNS subdomain with a dot, e.g. {@code example.com}
 * @param version the API version, a DNS label, e.g. {@code v1}
 * @param kind the kind and the Java class's name, e.g. {@code Greeting}
 * @param plural the resource's plural name, e.g. {@code greetings}
 * @param javaPackage the Java package of the sources
 * @param groupId the Maven groupId
 * @param artifactId the Maven artifactId
 */
record ProjectNames(String group, String version, String kind, String plural, String javaPackage, String groupId,
                    String artifactId) {
    static final String DEFAULT_GROUP = "example.com";
    static final String DEFAULT_VERSION = "v1";

    private static final String DNS_LABEL = "[a-z0-9]([-a-z0-9]*[a-z0-9])?";
    /** Kubernetes' DNS-1123 subdomain (at most 253 characters), with at least one dot, as CRDs' groups must be. */
    private static final Pattern GROUP = Pattern.compile("(?=.{1,253}$)" + DNS_LABEL + "(\\." + DNS_LABEL + ")+");
    /** Kubernetes' DNS-1035 label (at most 63 characters), as CRDs' versions and plurals must be. */
    private static final Pattern DNS_1035_LABEL = Pattern.compile("(?=.{1,63}$)[a-z]([-a-z0-9]*[a-z0-9])?");
    /** A class name whose lowercase is the CRD's singular name, a DNS-1035 label too. */
    private static final Pattern KIND = Pattern.compile("(?=.{1,63}$)[A-Z][A-Za-z0-9]*");
    private static final Pattern MAVEN_ID = Pattern.compile("[A-Za-z0-9_.-]+");
    private static final Pattern WORD_SEPARATORS = Pattern.compile("[-_.\\s]+");
    /** The simple names the generated sources import: a kind of the same name would not compile. */
    static final Set<String> IMPORTED_NAMES = Set.of("Namespaced", "CustomResource", "Group", "Version", "Plural",
            "JsonPropertyDescription", "Default", "Max", "Min", "Required", "JsonIgnoreProperties",
            "PreserveUnknownFields", "On", "Logger", "KopfHarness", "KopfTest", "Duration", "Test", "ObjectMetaBuilder");

    /**
     * Checks the given names and derives the missing ones (null: not given).
     *
     * @param dir the project's directory: the default artifactId, and the kind without a trailing {@code -operator}
     * @throws IllegalStateException naming the option whose value is bad, or that must be given
     */
    static ProjectNames of(Path dir, String group, String version, String kind, String plural, String javaPackage,
                           String groupId, String artifactId) {
        Path name = dir.toAbsolutePath().normalize().getFileName();
        String dirName = name == null ? "" : name.toString();   // the root directory has no name
        String theGroup = check("--group", orDefault(group, DEFAULT_GROUP), GROUP, "a DNS subdomain with a dot, e.g. example.com");
        String theVersion = check("--version", orDefault(version, DEFAULT_VERSION), DNS_1035_LABEL,
                "a lowercase DNS label starting with a letter, e.g. v1 or v1beta1");
        String theKind = kind != null ? checkKind(kind, "") : checkKind(kindOf(dirName), " (from the directory '" + dirName + "'; give --kind)");
        String thePlural = check("--plural", orDefault(plural, theKind.toLowerCase(Locale.ROOT) + "s"), DNS_1035_LABEL,
                "a lowercase DNS label starting with a letter, e.g. greetings");
        String theGroupId = check("--group-id", orDefault(groupId, reversed(theGroup)), MAVEN_ID, "letters, digits, '_', '-' and '.'");
        String theArtifactId = check("--artifact-id", orDefault(artifactId, dirName), MAVEN_ID, "letters, digits, '_', '-' and '.'");
        String thePackage = orDefault(javaPackage, packageOf(theGroup));
        if (!SourceVersion.isName(thePackage)) {
            throw invalid("--package", thePackage, "", "a Java package name of identifiers that are not keywords, e.g. com.example.operator");
        }
        return new ProjectNames(theGroup, theVersion, theKind, thePlural, thePackage, theGroupId, theArtifactId);
    }

    /** {@return the object's singular name: the kind in lowercase, as Kubernetes derives it} */
    String singular() {
        return kind.toLowerCase(Locale.ROOT);
    }

    /** {@return the kind from a directory's name: my-memcached-operator is MyMemcached} */
    static String kindOf(String dirName) {
        String words = dirName.replaceFirst("(?i)[-_.]?operator$", "");
        return Arrays.stream(WORD_SEPARATORS.split(words))
                .filter(word -> !word.isEmpty())
                .map(word -> word.substring(0, 1).toUpperCase(Locale.ROOT) + word.substring(1))
                .collect(Collectors.joining());
    }

    /** Checks a kind; {@code origin} says where a derived one came from, after the value in the error. */
    private static String checkKind(String kind, String origin) {
        if (!KIND.matcher(kind).matches()) {
            throw invalid("--kind", kind, origin,
                    "a Java class name of at most 63 letters and digits starting upper-case, e.g. Greeting");
        }
        if (IMPORTED_NAMES.contains(kind)) {
            throw invalid("--kind", kind, origin,
                    "a name other than those the sources import: " + String.join(", ", IMPORTED_NAMES.stream().sorted().toList()));
        }
        return kind;
    }

    /** The reversed group as a package: example.com is com.example.operator; what is not a Java identifier is mended. */
    private static String packageOf(String group) {
        return Arrays.stream(reversed(group).split("\\."))
                .map(part -> part.replace('-', '_'))
                .map(part -> Character.isJavaIdentifierStart(part.charAt(0)) ? part : "_" + part)
                .map(part -> SourceVersion.isKeyword(part) ? part + "_" : part)
                .collect(Collectors.joining(".")) + ".operator";
    }

    private static String reversed(String group) {
        List<String> parts = Arrays.asList(group.split("\\."));
        Collections.reverse(parts);
        return String.join(".", parts);
    }

    private static String orDefault(String value, String fallback) {
        return value != null ? value : fallback;
    }

    private static String check(String option, String value, Pattern pattern, String expected) {
        if (!pattern.matcher(value).matches()) {
            throw invalid(option, value, "", expected);
        }
        return value;
    }

    /** {@code origin}: where a derived value came from, or empty for a given one. */
    private static IllegalStateException invalid(String option, String value, String origin, String expected) {
        return new IllegalStateException("invalid " + option + " '" + value + "'" + origin + ": expected " + expected);
    }
}
