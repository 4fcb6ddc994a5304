package io.kopf4j.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * What kopf4j-testing brings onto a user's test classpath: the operator, its local cluster and the
 * loading of handlers shared with the command, but not the command itself (kopf4j-cli, with its
 * commands and fabric8's CRD generator).
 */
class TestClasspathTest {
    @Test
    void aUsersTestsGetTheLoadingOfHandlersButNotTheCommand() {
        List<String> classpath = List.of(System.getProperty("java.class.path").split(File.pathSeparator));
        assertThat(classpath).anyMatch(entry -> entry.contains("kopf4j-loading"));
        assertThat(classpath).noneMatch(entry -> entry.contains("kopf4j-cli") || entry.contains("crd-generator")
                || entry.contains("jackson-module-jsonSchema"));
    }
}
