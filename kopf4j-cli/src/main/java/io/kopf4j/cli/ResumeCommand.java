package io.kopf4j.cli;

import io.kopf4j.internal.loading.PeeringOptions;
import java.time.Duration;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/**
 * {@code kopf4j resume}: Kopf's {@code kopf resume}. Removes the manual peer that
 * {@code kopf4j freeze} wrote (the same identity: {@code user@host}, or {@code --id}), so that the
 * paused operators resume at once.
 */
@Command(name = "resume", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Resumes the resource handling in the operator(s) of a peering.",
        footer = {"", "Examples:",
                "  kopf4j resume -P default -n default",
                "",
                "Options default to environment variables KOPF4J_RESUME_<OPTION>, e.g. KOPF4J_RESUME_PEERING."})
final class ResumeCommand implements Callable<Integer> {
    @Mixin
    PeeringOptions options;

    @Override
    public Integer call() throws InterruptedException {
        options.touch(0, Duration.ZERO);
        return 0;
    }
}
