package io.kopf4j.cli;

import static io.kopf4j.cli.CommandResult.kopf4j;
import static org.assertj.core.api.Assertions.assertThat;

import io.kopf4j.envtest.LocalCluster;
import io.kopf4j.envtest.LocalClusterExtension;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** Every kind of bad input ends with one clear error line and a non-zero exit code. */
@ExtendWith(LocalClusterExtension.class)
class BadInputTest {
    @TempDir
    Path dir;

    private Path handlers(String resource) throws Exception {
        return Files.writeString(dir.resolve("Handlers.java"), """
                import io.kopf4j.On;
                public class Handlers {
                    @On.Create("%s")
                    public void create(String name) {}
                }
                """.formatted(resource));
    }

    @Test
    void freezeWithoutPeeringOrLifetime() {
        assertThat(kopf4j("freeze", "--lifetime", "60").code()).isEqualTo(2);
        assertThat(kopf4j("freeze", "-P", "default").code()).isEqualTo(2);
        assertThat(kopf4j("resume").code()).isEqualTo(2);
    }

    @Test
    void freezeWithoutPeeringCrds(LocalCluster cluster) {
        CommandResult result = kopf4j("freeze", "-P", "default", "--lifetime", "60", "--kubeconfig", cluster.kubeconfig().toString());
        assertThat(result.code()).isEqualTo(1);
        assertThat(result.lastErrorLine()).isEqualTo("kopf4j: error: Cannot find the peering resource for"
                + " [kopf.dev/v1/clusterkopfpeerings, zalando.org/v1/clusterkopfpeerings].");
    }

    @Test
    void missingHandlersFile() {
        CommandResult result = kopf4j("run", "-n", "default", "nope/Missing.java");
        assertThat(result.code()).isEqualTo(1);
        assertThat(result.err().strip()).isEqualTo("kopf4j: error: handlers file not found: nope/Missing.java");
    }

    @Test
    void javaFileThatDoesNotCompile() throws Exception {
        Path broken = Files.writeString(dir.resolve("Broken.java"), "public class Broken {\n    int x = ;\n}\n");
        CommandResult result = kopf4j("run", broken.toString());
        assertThat(result.code()).isEqualTo(1);
        assertThat(result.err().strip()).isEqualTo("kopf4j: error: " + broken + ":2: error: illegal start of expression\n"
                + "    int x = ;\n"
                + "            ^\n"
                + "1 error");
    }

    @Test
    void unreachableCluster() throws Exception {
        Path kubeconfig = Files.writeString(dir.resolve("kubeconfig"), """
                apiVersion: v1
                kind: Config
                clusters:
                - name: nowhere
                  cluster: {server: "https://127.0.0.1:1", insecure-skip-tls-verify: true}
                users:
                - name: nobody
                  user: {token: "x"}
                contexts:
                - name: nowhere
                  context: {cluster: nowhere, user: nobody}
                current-context: nowhere
                """);
        CommandResult result = kopf4j("run", "--kubeconfig", kubeconfig.toString(), handlers("kopfexamples").toString());
        assertThat(result.code()).isEqualTo(1);
        assertThat(result.lastErrorLine()).isEqualTo("kopf4j: error: cannot reach the Kubernetes API at https://127.0.0.1:1/: connection refused");
    }

    @Test
    void missingKubeconfigFile() throws Exception {
        CommandResult result = kopf4j("run", "--kubeconfig", "/nonexistent/kubeconfig", handlers("kopfexamples").toString());
        assertThat(result.code()).isEqualTo(1);
        assertThat(result.lastErrorLine()).isEqualTo("kopf4j: error: One or more authentication handlers failed:"
                + " 'login_with_kubeconfig': kubeconfig file not found: /nonexistent/kubeconfig");
    }

    @Test
    void optionsDefaultToEnvironmentVariables() {
        StringWriter err = new StringWriter();
        int code = Main.execute(new String[]{"run", "-n", "default", "x.java"}, new PrintWriter(new StringWriter(), true),
                new PrintWriter(err, true), java.util.Map.of("KOPF4J_RUN_LOG_FORMAT", "yaml"));
        assertThat(code).isEqualTo(1);
        assertThat(err.toString().strip()).isEqualTo("kopf4j: error: invalid log format 'yaml': expected full, plain or json");
        assertThat(EnvironmentDefaults.variable("run", "--all-namespaces")).isEqualTo("KOPF4J_RUN_ALL_NAMESPACES");
    }

    @Test
    void webhookConfigurationNeedsExactlyOneTargetAndValidFiles() throws Exception {
        String source = handlers("kopfexamples").toString();
        assertThat(kopf4j("webhook-configuration", source).code()).as("neither --url nor --service").isEqualTo(2);
        CommandResult both = kopf4j("webhook-configuration", "--url", "https://x", "--service", "ns/op", source);
        assertThat(both.code()).isEqualTo(2);
        assertThat(both.err()).contains("mutually exclusive");
        assertThat(kopf4j("webhook-configuration", "--service", "op", source).lastErrorLine())
                .isEqualTo("kopf4j: error: invalid --service 'op': expected NAMESPACE/NAME");
        assertThat(kopf4j("webhook-configuration", "--url", "https://x", "--ca-bundle", "nope.pem", source).lastErrorLine())
                .isEqualTo("kopf4j: error: CA bundle file not found: nope.pem");
        assertThat(kopf4j("webhook-configuration", "--url", "https://x").lastErrorLine())
                .isEqualTo("kopf4j: error: no handlers given: name .java files, .jar files or classes, or -m PACKAGE");
    }

    @Test
    void crdOfClassesThatAreNotCustomResourcesOrCannotBeDescribed() throws Exception {
        Path noCustomResource = Files.writeString(dir.resolve("Plain.java"), "public class Plain {}\n");
        Path unannotated = Files.writeString(dir.resolve("Unannotated.java"), """
                public class Unannotated extends io.fabric8.kubernetes.client.CustomResource<Unannotated.Spec, Void> {
                    public record Spec(String image) {}
                }
                """);
        Path rawList = Files.writeString(dir.resolve("RawList.java"), """
                @io.fabric8.kubernetes.model.annotation.Group("example.com")
                @io.fabric8.kubernetes.model.annotation.Version("v1")
                public class RawList extends io.fabric8.kubernetes.client.CustomResource<RawList.Spec, Void> {
                    @SuppressWarnings("rawtypes")
                    public record Spec(java.util.List items) {}
                }
                """);
        assertThat(kopf4j("crd", "java.lang.String").lastErrorLine()).isEqualTo("kopf4j: error: java.lang.String is not a"
                + " custom resource class: it does not extend io.fabric8.kubernetes.client.CustomResource");
        assertThat(kopf4j("crd", noCustomResource.toString()).lastErrorLine()).isEqualTo("kopf4j: error: no custom resource"
                + " classes in " + noCustomResource + ": no class extends io.fabric8.kubernetes.client.CustomResource");
        assertThat(kopf4j("crd", unannotated.toString()).lastErrorLine()).isEqualTo("kopf4j: error: custom resource class"
                + " Unannotated has no @Group and no @Version: annotate it with"
                + " @io.fabric8.kubernetes.model.annotation.Group(\"example.com\")"
                + " and @io.fabric8.kubernetes.model.annotation.Version(\"v1\")");
        assertThat(kopf4j("crd", rawList.toString()).lastErrorLine())
                .isEqualTo("kopf4j: error: cannot generate the CRD of RawList: Untyped collection items");
        assertThat(kopf4j("crd", "nope/Widget.java").lastErrorLine())
                .isEqualTo("kopf4j: error: custom resources file not found: nope/Widget.java");
        assertThat(kopf4j("crd", "com.example.Nope").lastErrorLine()).isEqualTo("kopf4j: error: custom resources not found:"
                + " 'com.example.Nope' is neither a .java file, a .jar file, nor a class on the classpath");
        assertThat(kopf4j("crd").code()).as("no classes: a usage error").isEqualTo(2);
    }

    @Test
    void unknownOptionIsAUsageError() {
        CommandResult result = kopf4j("run", "--no-such-option", "x.java");
        assertThat(result.code()).isEqualTo(2);
        assertThat(result.err()).contains("Unknown option: '--no-such-option'");
    }

    @Test
    void namespaceAndAllNamespacesExcludeEachOther() throws Exception {
        CommandResult result = kopf4j("run", "-A", "-n", "default", handlers("kopfexamples").toString());
        assertThat(result.code()).isEqualTo(1);
        assertThat(result.lastErrorLine()).isEqualTo("kopf4j: error: -A/--all-namespaces and -n/--namespace exclude each other");
    }

    @Test
    void crdFilesNeedALocalCluster() throws Exception {
        CommandResult result = kopf4j("run", "--crd", "crd.yaml", handlers("kopfexamples").toString());
        assertThat(result.code()).isEqualTo(1);
        assertThat(result.lastErrorLine())
                .isEqualTo("kopf4j: error: --crd is only for --local-cluster; use kubectl apply for other clusters");
    }

    @Test
    void aMalformedCrdFileIsOneLineNamingTheFileAndTheLineBeforeAnyClusterStarts() throws Exception {
        Path crd = Files.writeString(dir.resolve("crd.yaml"), "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\n"
                + "metadata:\n  name: x\n spec: [\n");
        String handlers = handlers("kopfexamples").toString();
        for (CommandResult result : new CommandResult[]{kopf4j("run", "--local-cluster", "--crd", crd.toString(), handlers),
                kopf4j("manifests", "--crd", crd.toString(), handlers)}) {
            assertThat(result.code()).isEqualTo(1);
            assertThat(result.err().strip()).matches("kopf4j: error: \\Q" + crd + "\\E:5:\\d+: [^\n]+")
                    .doesNotContain("Exception").doesNotContain("\tat ");
        }
        Path notACrd = Files.writeString(dir.resolve("list.yaml"), "- a\n- b\n");
        assertThat(kopf4j("manifests", "--crd", notACrd.toString(), handlers).err().strip())
                .isEqualTo("kopf4j: error: " + notACrd + ": document 1 is not a Kubernetes object (an object with apiVersion and kind)");
        Path incomplete = Files.writeString(dir.resolve("incomplete.yaml"),
                "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata: {name: widgets.example.com}\n");
        assertThat(kopf4j("manifests", "--crd", incomplete.toString(), handlers).err().strip())
                .isEqualTo("kopf4j: error: " + incomplete + ": the CustomResourceDefinition 'widgets.example.com' lacks"
                        + " spec.group, spec.names or spec.versions as apiextensions.k8s.io/v1 has them");
    }

    @Test
    void optionsThatExcludeEachOther() throws Exception {
        String source = handlers("kopfexamples").toString();
        assertThat(kopf4j("run", "--standalone", "-P", "main", source).lastErrorLine())
                .isEqualTo("kopf4j: error: --standalone and -P/--peering exclude each other");
        assertThat(kopf4j("run", "--dev", "-p", "5", source).lastErrorLine())
                .isEqualTo("kopf4j: error: --dev (priority 666) and -p/--priority exclude each other");
        assertThat(kopf4j("run", "--leader-election-id", "example", source).lastErrorLine())
                .isEqualTo("kopf4j: error: --leader-election-id and --leader-election-namespace need --leader-election");
        assertThat(kopf4j("run", "-A", "-n", "default", source).lastErrorLine())
                .isEqualTo("kopf4j: error: -A/--all-namespaces and -n/--namespace exclude each other");
        CommandResult nothing = kopf4j("run", "-n", "default");
        assertThat(nothing.code()).isEqualTo(1);
        assertThat(nothing.lastErrorLine())
                .isEqualTo("kopf4j: error: no handlers given: name .java files, .jar files or classes, or -m PACKAGE");
        assertThat(kopf4j("run", "--priority", "high", source).code()).as("picocli: a usage error").isEqualTo(2);
    }

    @Test
    void reloadNeedsJavaSources() throws Exception {
        assertThat(kopf4j("run", "--reload", "-n", "default", "handlers.jar").lastErrorLine()).isEqualTo("kopf4j: error:"
                + " --reload compiles .java handler sources again; handlers.jar is a jar: give its .java files instead");
        assertThat(kopf4j("run", "--reload", "-n", "default", "com.example.Handlers").lastErrorLine()).isEqualTo("kopf4j:"
                + " error: --reload compiles .java handler sources again; com.example.Handlers is a class name: give its"
                + " .java files instead");
        assertThat(kopf4j("run", "--reload", "-n", "default", "-m", "com.example", handlers("kopfexamples").toString())
                .lastErrorLine()).isEqualTo("kopf4j: error: --reload compiles .java handler sources again; -m com.example"
                + " names compiled classes: give its .java files instead");
    }

    @Test
    void anInvalidSettingFromAStartupHandlerFailsWithOneLine() throws Exception {
        Path source = Files.writeString(dir.resolve("Misconfigured.java"), """
                import io.kopf4j.On;
                import io.kopf4j.OperatorSettings;
                public class Misconfigured {
                    @On.Startup
                    public void configure(OperatorSettings settings) { settings.networking.requestTimeout = java.time.Duration.ZERO; }
                    @On.Create("kopfexamples")
                    public void create() {}
                }
                """);
        CommandResult result = kopf4j("run", "-n", "default", "--kubeconfig", "/nonexistent/kubeconfig", source.toString());
        assertThat(result.code()).isEqualTo(1);
        assertThat(result.lastErrorLine())
                .isEqualTo("kopf4j: error: invalid setting settings.networking.requestTimeout: must be positive, got PT0S");
    }

    @Test
    void helpShowsTheExamplesAndTheExitCodes() {
        CommandResult help = kopf4j("run", "--help");
        assertThat(help.code()).isZero();
        assertThat(help.out()).contains("Examples:", "kopf4j run --local-cluster", "-m, --module=NAME", "--standalone",
                "-P, --peering=NAME", "--dev", "--health-probe-bind-address", "--metrics-bind-address", "KOPF4J_RUN_",
                "--leader-election", "--leader-election-id=NAME", "--reload", "kopf4j run --reload", "--leader-election-namespace=NAMESPACE",
                "Exit codes:", "3  did not stop within settings.process.ultimateExitingTimeout");
        CommandResult version = kopf4j("--version");
        assertThat(version.code()).isZero();
        assertThat(version.out()).startsWith("kopf4j ");
    }
}
