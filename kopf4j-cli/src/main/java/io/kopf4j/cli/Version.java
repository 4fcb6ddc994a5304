package io.kopf4j.cli;

import picocli.CommandLine.IVersionProvider;

/** The version from the jar's manifest (set by the build), for {@code kopf4j --version}. */
final class Version implements IVersionProvider {
    @Override
    public String[] getVersion() {
        String version = Main.class.getPackage().getImplementationVersion();
        return new String[]{"kopf4j " + (version == null ? "(development build)" : version)};
    }
}
