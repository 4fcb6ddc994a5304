package io.kopf4j.cli;

import io.kopf4j.OperatorException;
import io.kopf4j.internal.loading.PeeringOptions;
import java.time.Duration;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code kopf4j freeze}: Kopf's {@code kopf freeze}. Writes a manual peer of a priority (100 by
 * default) into the peering object for a lifetime, so that the operators of a lower priority pause
 * until it expires or {@code kopf4j resume} removes it.
 */
@Command(name = "freeze", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Pauses the resource handling in the operator(s) of a peering.",
        footer = {"", "Examples:",
                "  kopf4j freeze -P default -n default --lifetime 600",
                "  kopf4j freeze -P default -A --lifetime 60 --dev",
                "",
                "Options default to environment variables KOPF4J_FREEZE_<OPTION>, e.g. KOPF4J_FREEZE_PEERING."})
final class FreezeCommand implements Callable<Integer> {
    @Mixin
    PeeringOptions options;

    @Option(names = {"-t", "--lifetime"}, paramLabel = "SECONDS", required = true,
            description = "For how long the operators stay paused, unless resumed earlier.")
    int lifetime;

    @Option(names = {"-p", "--priority"}, paramLabel = "INT", defaultValue = "100",
            description = "The manual peer's priority (default 100): operators of a lower priority pause.")
    int priority;

    @Option(names = "--dev", description = "Priority 666, as an operator's --dev.")
    boolean dev;

    @Option(names = {"-m", "--message"}, paramLabel = "TEXT", description = "Accepted as Kopf's; not stored (Kopf does not store it either).")
    String message;

    @Override
    public Integer call() throws InterruptedException {
        if (lifetime <= 0) {
            throw new OperatorException("--lifetime must be positive, got " + lifetime);
        }
        options.touch(dev ? 666 : priority, Duration.ofSeconds(lifetime));
        return 0;
    }
}
