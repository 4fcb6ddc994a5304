package io.kopf4j.cli;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.kopf4j.kits.StorageMigration;
import java.io.PrintWriter;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code kopf4j migrate-storage}: rewrites every object of a CRD in its storage version
 * ({@link StorageMigration}), and with {@code --forget-old-versions} then sets the CRD's
 * {@code status.storedVersions} to that version alone, after which an old version can be removed
 * from the CRD. Exit code 0 when every object was rewritten (or needed not be), 1 when some failed.
 *
 * <pre>
 * kopf4j migrate-storage caches.kopf4j.dev --forget-old-versions
 * </pre>
 */
@Command(name = "migrate-storage", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Rewrites every object of a custom resource in its CRD's storage version, as",
                "kube-storage-version-migrator does, so that an old version can be dropped from the CRD.",
                "The operator's conversion webhook must be serving meanwhile."},
        footer = {"", "Examples:",
                "  kopf4j migrate-storage caches.kopf4j.dev",
                "  kopf4j migrate-storage caches.kopf4j.dev --forget-old-versions",
                "  kopf4j migrate-storage --local-cluster demo caches.kopf4j.dev",
                "", "Then remove the old version from the CRD's spec.versions: docs/versions.md."})
final class MigrateStorageCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "CRD", description = "The CRD's name, <plural>.<group>, e.g. caches.kopf4j.dev.")
    String crd;

    @Option(names = "--forget-old-versions",
            description = "After a pass without failures, set the CRD's status.storedVersions to its storage version alone.")
    boolean forgetOldVersions;

    @Mixin
    ClusterOptions cluster;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        try (KubernetesClient client = cluster.client()) {
            StorageMigration migration = StorageMigration.of(client, crd);
            StorageMigration.Result result = migration.migrate();
            out.println(result);
            result.failed().forEach(failure -> out.println("  failed: " + failure));
            if (!result.failed().isEmpty()) {
                out.flush();
                return 1;
            }
            if (forgetOldVersions) {
                List<String> before = migration.forgetOldVersions(result);
                out.println(crd + ": status.storedVersions " + before + " → [" + result.storageVersion() + "]");
            }
        }
        out.flush();
        return 0;
    }
}
