package io.kopf4j.cli;

import io.kopf4j.envtest.EnvtestAssets;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code kopf4j envtest}: provisions the local control plane's binaries and prints where they are. */
@Command(name = "envtest", mixinStandardHelpOptions = true,
        description = {"Finds or provisions kube-apiserver, etcd and kubectl for --local-cluster and the tests,",
                "and prints their directory: $KUBEBUILDER_ASSETS, the cache (~/.cache/kopf4j/envtest),",
                "the official envtest archive, or a build from Debian's sources (about 5 minutes, once)."})
final class EnvtestCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        spec.commandLine().getOut().println(EnvtestAssets.locate());
        return 0;
    }
}
