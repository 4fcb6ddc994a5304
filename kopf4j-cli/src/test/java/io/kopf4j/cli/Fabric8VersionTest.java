package io.kopf4j.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.client.Version;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Where users are given or told a fabric8 version, it is the one kopf4j is built with: the CRD
 * generator's annotations that kopf4j-core brings must be those that the generator reads.
 */
class Fabric8VersionTest {
    @Test
    void theBomPinsTheGeneratorInKopf4jsFabric8Version() throws Exception {
        String bom = Files.readString(Path.of("../kopf4j-bom/pom.xml"));
        assertThat(only(Pattern.compile("<fabric8.version>([^<]+)</fabric8.version>"), bom)).isEqualTo(Version.clientVersion());
    }

    @Test
    void theGuidesMavenPluginIsOfKopf4jsFabric8Version() {
        String plugin = DeployingGuide.block("xml", "<artifactId>crd-generator-maven-plugin</artifactId>");
        assertThat(only(Pattern.compile("<version>([^<]+)</version>"), plugin)).isEqualTo(Version.clientVersion());
    }

    private static String only(Pattern pattern, String text) {
        Matcher matcher = pattern.matcher(text);
        assertThat(matcher.find()).as("%s in %s", pattern, text).isTrue();
        String value = matcher.group(1);
        assertThat(matcher.find()).as("one %s only", pattern).isFalse();
        return value;
    }
}
