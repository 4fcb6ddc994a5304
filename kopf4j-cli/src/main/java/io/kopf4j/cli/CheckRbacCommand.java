package io.kopf4j.cli;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.kopf4j.internal.engines.permissions.Preflight;
import io.kopf4j.internal.loading.OperatorPlan;
import io.kopf4j.internal.loading.RunOptions;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code kopf4j check-rbac}: the operator's permission preflight without running it, for CI
 * pipelines: the permissions the handlers and options need, asked of the cluster for the
 * kubeconfig's user, or for another one ({@code --as}, a SubjectAccessReview). Exit code 0 when
 * every required permission is granted (a missing optional one, posting Events, is printed as a
 * warning), 1 with the missing ones printed, each with the rule to add.
 */
@Command(name = "check-rbac", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Checks that the operator's credentials have every permission it needs, without running it.",
        footer = {"", "Examples:",
                "  kopf4j check-rbac -n default Handlers.java",
                "  kopf4j check-rbac -A --leader-election \\",
                "      --as system:serviceaccount:operators:my-operator handlers.jar",
                "",
                "Exit codes:",
                "  0  every required permission is granted",
                "  1  some are missing (printed, each with the rule to add), or the check failed",
                "  2  invalid command line"})
final class CheckRbacCommand implements Callable<Integer> {
    @Mixin
    RunOptions options;

    @Option(names = "--as", paramLabel = "USER",
            description = "Check for this user instead of the kubeconfig's, e.g. system:serviceaccount:NAMESPACE:NAME"
                    + " (needs create on subjectaccessreviews).")
    String as;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws InterruptedException {
        options.configureLoggingForAResult();
        OperatorPlan plan = options.plan();
        PrintWriter out = spec.commandLine().getOut();
        try (KubernetesClient client = plan.client()) {
            Preflight.Outcome outcome = plan.check(client, as);
            outcome.warning().ifPresent(out::println);
            if (outcome.error().isPresent()) {
                out.println(outcome.error().get());
                out.flush();
                return 1;
            }
            out.println("Every permission the operator needs is granted" + (as == null ? "." : " to " + as + "."));
            out.flush();
            return 0;
        }
    }
}
