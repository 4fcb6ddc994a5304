package io.kopf4j.cli;

import java.util.Locale;
import java.util.Map;
import picocli.CommandLine.IDefaultValueProvider;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * Defaults of options from the environment, as Kopf's {@code KOPF_RUN_...}: {@code --namespace} of
 * {@code kopf4j run} reads {@code KOPF4J_RUN_NAMESPACE}, {@code --log-format} reads
 * {@code KOPF4J_RUN_LOG_FORMAT}. Options given on the command line win.
 */
final class EnvironmentDefaults implements IDefaultValueProvider {
    private final Map<String, String> environment;

    EnvironmentDefaults(Map<String, String> environment) {
        this.environment = environment;
    }

    @Override
    public String defaultValue(ArgSpec argument) {
        if (!(argument instanceof OptionSpec option) || option.command() == null) {
            return null;
        }
        return environment.get(variable(option.command().name(), option.longestName()));
    }

    static String variable(String command, String option) {
        return ("KOPF4J_" + command + "_" + option.replaceFirst("^-+", "")).toUpperCase(Locale.ROOT).replace('-', '_');
    }
}
