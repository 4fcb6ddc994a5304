import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.fabric8.crd.generator.annotation.AdditionalPrinterColumn;
import io.fabric8.crd.generator.annotation.AdditionalPrinterColumn.Type;
import io.fabric8.crd.generator.annotation.PreserveUnknownFields;
import io.fabric8.crd.generator.annotation.PrinterColumn;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Max;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Required;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.EnvVarBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceBuilder;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.api.model.apps.StatefulSetBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.CronJob;
import io.fabric8.kubernetes.api.model.batch.v1.CronJobBuilder;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.ShortNames;
import io.fabric8.kubernetes.model.annotation.Version;
import io.kopf4j.On;
import io.kopf4j.Patch;
import io.kopf4j.PermanentError;
import io.kopf4j.Permission;
import io.kopf4j.Status;
import io.kopf4j.TemporaryError;
import io.kopf4j.Timer;
import io.kopf4j.kits.Hierarchies;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;

/**
 * The Database operator of "Python Kubernetes Operator with kopf", the kopf4j way. For each
 * Database: a StatefulSet running the engine, a headless Service in front of it and, while
 * {@code backupEnabled}, a nightly backup CronJob, all owned by the Database (Hierarchies.adopt),
 * so that the garbage collector deletes them with it. The status says how many replicas are
 * ready, with a {@code Ready} condition.
 *
 *   ./kopf4j run --local-cluster --crd examples/database/crd.yaml examples/database/DatabaseOperator.java
 *   kubectl apply -f examples/database/database.yaml
 *   kubectl get db,statefulsets,services,cronjobs
 *
 * Children are sent with server-side apply: a handler retried after a TemporaryError applies the
 * same objects again instead of failing on "already exists". Their ports name their protocol,
 * which the API server defaults otherwise: server-side apply before Kubernetes 1.21 needs it, as a
 * key of the ports list, and answers 500 without it.
 */
@Permission(group = "apps", resources = "statefulsets", verbs = {"get", "create", "patch"})   // applied, read, scaled
@Permission(resources = "services", verbs = {"create", "patch"})                            // applied
@Permission(group = "batch", resources = "cronjobs", verbs = {"create", "patch", "delete"}) // applied, deleted
public class DatabaseOperator {
    static final String DATABASES = "databases.techoral.com";
    private static final String MANAGER = "database-operator";
    /** How often a Database's readiness is checked, while provisioning and after. */
    private static final Duration READINESS_CHECK = Duration.ofSeconds(10);
    private static final String BACKUP_SCHEDULE = "0 2 * * *";

    /**
     * The Database resource. Its CRD, crd.yaml, is generated from these classes, and the handlers
     * take the spec as the same record, so the two cannot disagree:
     * {@code ./kopf4j crd examples/database/DatabaseOperator.java > examples/database/crd.yaml}
     * (DatabaseOperatorTest checks that it is up to date).
     */
    @Group("techoral.com")
    @Version("v1")
    @ShortNames("db")
    // The columns of `kubectl get db`: these and the fields' @PrinterColumn, ordered by their paths.
    @AdditionalPrinterColumn(name = "Age", jsonPath = ".metadata.creationTimestamp", type = Type.DATE)
    public static class Database extends CustomResource<DatabaseSpec, DatabaseStatus> implements Namespaced {
    }

    /** A Database's spec; the CRD's schema guarantees the required fields, the bounds and the defaults. */
    public record DatabaseSpec(
            @Required @PrinterColumn(name = "Engine") Engine engine,
            @Required @PrinterColumn(name = "Version") String version,
            @Required @Pattern("^[0-9]+(Gi|Mi)$") String storage,
            @Min(1) @Max(5) @Default("1") @PrinterColumn(name = "Replicas") int replicas,
            @Default("true") boolean backupEnabled) {
    }

    /** What the operator writes, open to more: the conditions, and kopf4j's own fields. */
    @PreserveUnknownFields
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record DatabaseStatus(@PrinterColumn(name = "Ready") Integer readyReplicas, @PrinterColumn(name = "State") String state) {
    }

    /** The engines the operator runs (the CRD's enum): their official images, the versions it supports, their conventions. */
    public enum Engine {
        @JsonProperty("postgresql")
        POSTGRESQL("postgres", List.of("14", "15", "16", "17"), 5432, "/var/lib/postgresql/data", "POSTGRES_PASSWORD",
                "PGPASSWORD=\"$PASSWORD\" pg_dumpall -h %s -U postgres"),
        @JsonProperty("mysql")
        MYSQL("mysql", List.of("8.0", "8.4"), 3306, "/var/lib/mysql", "MYSQL_ROOT_PASSWORD",
                "mysqldump -h %s -u root -p\"$PASSWORD\" --all-databases"),
        @JsonProperty("mariadb")
        MARIADB("mariadb", List.of("10.11", "11.4"), 3306, "/var/lib/mysql", "MARIADB_ROOT_PASSWORD",
                "mariadb-dump -h %s -u root -p\"$PASSWORD\" --all-databases");

        final String image;
        final List<String> versions;
        final int port;
        final String dataPath;
        final String passwordVariable;
        /** Dumps every database of the host named by %s to the job's output: send it where backups go. */
        final String backupCommand;

        Engine(String image, List<String> versions, int port, String dataPath, String passwordVariable, String backupCommand) {
            this.image = image;
            this.versions = versions;
            this.port = port;
            this.dataPath = dataPath;
            this.passwordVariable = passwordVariable;
            this.backupCommand = backupCommand;
        }

        String id() {
            return name().toLowerCase();
        }
    }

    @On.Create(DATABASES)
    public void create(DatabaseSpec spec, String name, String namespace, Status status, Patch patch,
                       KubernetesClient client, Logger logger) {
        Engine engine = engineOf(spec, status, patch);
        StatefulSet set = apply(client, statefulSet(name, spec, engine));
        apply(client, service(name, engine));
        patch.status().put("engine", engine.id());
        patch.status().put("version", spec.version());
        patch.status().put("endpoint", name + "." + namespace + ".svc.cluster.local:" + engine.port);
        int ready = readyReplicas(set);
        report(patch, status, spec.replicas(), ready);
        if (ready < spec.replicas()) {
            throw new TemporaryError("Waiting for the StatefulSet: " + ready + " of " + spec.replicas()
                    + " replicas are ready", READINESS_CHECK);
        }
        logger.info("Database {} is ready", name);
    }

    @On.Update(value = DATABASES, field = "spec.replicas")
    public void scale(DatabaseSpec spec, String name, String namespace, Object old, Status status, Patch patch,
                      KubernetesClient client, Logger logger) {
        engineOf(spec, status, patch);
        logger.info("Scaling {} from {} to {} replicas", name, old, spec.replicas());
        client.apps().statefulSets().inNamespace(namespace).withName(name)
                .edit(set -> new StatefulSetBuilder(set).editSpec().withReplicas(spec.replicas()).endSpec().build());
    }

    /** Also on creation (Kopf's field handlers), so it creates the first backup CronJob too. */
    @On.Field(value = DATABASES, field = "spec.backupEnabled")
    public void backups(DatabaseSpec spec, String name, String namespace, Status status, Patch patch,
                        KubernetesClient client, Logger logger) {
        Engine engine = engineOf(spec, status, patch);
        if (spec.backupEnabled()) {
            apply(client, backupCronJob(client, name, spec, engine));
            logger.info("Enabled backups for {}", name);
        } else {
            deleteBackups(client, name, namespace);
            logger.info("Disabled backups for {}", name);
        }
    }

    /**
     * The garbage collector deletes the children with the Database (their owner references). The
     * backups go first, so that no backup job starts against a database being torn down.
     */
    @On.Delete(DATABASES)
    public void delete(String name, String namespace, KubernetesClient client, Logger logger) {
        deleteBackups(client, name, namespace);
        logger.info("Database {} cleanup complete", name);
    }

    /** Follows the StatefulSet's ready replicas (which its controller updates) into the Database's status. */
    @Timer(value = DATABASES, interval = 10)
    public void readiness(DatabaseSpec spec, String name, String namespace, Status status, Patch patch,
                          KubernetesClient client) {
        StatefulSet set = client.apps().statefulSets().inNamespace(namespace).withName(name).get();
        if (set != null) {   // none for an invalid spec, or before the create handler has run
            report(patch, status, spec.replicas(), readyReplicas(set));
        }
    }

    /**
     * The engine of a valid spec (the CRD admits only known engines); for a version it does not
     * support, the Failed state and a PermanentError: retrying cannot help.
     */
    private static Engine engineOf(DatabaseSpec spec, Status status, Patch patch) {
        Engine engine = spec.engine();
        if (!engine.versions.contains(spec.version())) {
            String problem = "Unsupported " + engine.id() + " version '" + spec.version() + "': expected one of " + engine.versions;
            patch.status().put("state", "Failed");
            patch.status().put("conditions", List.of(readyCondition(status, false, "InvalidSpec", problem)));
            throw new PermanentError(problem);
        }
        return engine;
    }

    private static void report(Patch patch, Status status, int desired, int ready) {
        boolean isReady = ready >= desired;
        patch.status().put("readyReplicas", ready);
        patch.status().put("state", isReady ? "Ready" : ready == 0 ? "Provisioning" : "Degraded");
        patch.status().put("conditions", List.of(readyCondition(status, isReady, isReady ? "DatabaseReady" : "ReplicasNotReady",
                ready + " of " + desired + " replicas are ready")));
    }

    /** Kubernetes' condition format; the transition time changes only when the condition's status does. */
    private static Map<String, Object> readyCondition(Status status, boolean ready, String reason, String message) {
        String value = ready ? "True" : "False";
        Object since = status.getList("conditions").stream().map(condition -> (Map<?, ?>) condition)
                .filter(condition -> "Ready".equals(condition.get("type")) && value.equals(condition.get("status")))
                .<Object>map(condition -> condition.get("lastTransitionTime")).findFirst()
                .orElseGet(() -> Instant.now().truncatedTo(ChronoUnit.SECONDS).toString());
        Map<String, Object> condition = new LinkedHashMap<>();
        condition.put("type", "Ready");
        condition.put("status", value);
        condition.put("reason", reason);
        condition.put("message", message);
        condition.put("lastTransitionTime", since);
        return condition;
    }

    /** Server-side apply: creates the child, or brings it back to this state, whichever is needed. */
    private static <T extends HasMetadata> T apply(KubernetesClient client, T child) {
        return client.resource(child).fieldManager(MANAGER).forceConflicts().serverSideApply();
    }

    private static int readyReplicas(StatefulSet set) {
        Integer ready = set.getStatus() == null ? null : set.getStatus().getReadyReplicas();
        return ready == null ? 0 : ready;
    }

    private static StatefulSet statefulSet(String name, DatabaseSpec spec, Engine engine) {
        StatefulSet set = new StatefulSetBuilder()
                .withNewMetadata().withLabels(selector(name)).endMetadata()
                .withNewSpec().withReplicas(spec.replicas()).withServiceName(name)
                .withNewSelector().withMatchLabels(selector(name)).endSelector()
                .withNewTemplate().withNewMetadata().withLabels(selector(name)).endMetadata()
                .withNewSpec().addNewContainer().withName(engine.id()).withImage(engine.image + ":" + spec.version())
                .addNewPort().withName("db").withContainerPort(engine.port).withProtocol("TCP").endPort()
                .withEnv(password(name, engine.passwordVariable))
                .addNewVolumeMount().withName("data").withMountPath(engine.dataPath).endVolumeMount()
                .withNewResources().addToRequests("memory", new Quantity("256Mi")).addToRequests("cpu", new Quantity("100m"))
                .addToLimits("memory", new Quantity("1Gi")).addToLimits("cpu", new Quantity("500m")).endResources()
                .endContainer().endSpec().endTemplate()
                .addNewVolumeClaimTemplate().withNewMetadata().withName("data").endMetadata()
                .withNewSpec().withAccessModes("ReadWriteOnce")
                .withNewResources().addToRequests("storage", new Quantity(spec.storage())).endResources()
                .endSpec().endVolumeClaimTemplate()
                .endSpec().build();
        // Named exactly as the Database (strict): the Service and the backups find it by that name.
        Hierarchies.adopt(set, null, false, true, "spec.template");
        return set;
    }

    /** Headless: each replica gets its own DNS name, <name>-0.<name>, as StatefulSets need. */
    private static Service service(String name, Engine engine) {
        Service service = new ServiceBuilder()
                .withNewMetadata().withLabels(selector(name)).endMetadata()
                .withNewSpec().withClusterIP("None").withSelector(selector(name))
                .addNewPort().withName("db").withPort(engine.port).withProtocol("TCP").endPort()
                .endSpec().build();
        Hierarchies.adopt(service, null, false, true);
        return service;
    }

    private static HasMetadata backupCronJob(KubernetesClient client, String name, DatabaseSpec spec, Engine engine) {
        CronJob cronJob = new CronJobBuilder()
                .withNewMetadata().withName(name + "-backup").withLabels(selector(name)).endMetadata()
                .withNewSpec().withSchedule(BACKUP_SCHEDULE).withConcurrencyPolicy("Forbid")
                .withNewJobTemplate().withNewSpec().withNewTemplate().withNewSpec().withRestartPolicy("OnFailure")
                .addNewContainer().withName("backup").withImage(engine.image + ":" + spec.version())
                .withCommand("sh", "-c", engine.backupCommand.formatted(name))
                .withEnv(password(name, "PASSWORD"))
                .endContainer().endSpec().endTemplate().endSpec().endJobTemplate()
                .endSpec().build();
        Hierarchies.adopt(cronJob, null, false, false, "spec.jobTemplate", "spec.jobTemplate.spec.template");
        Class<? extends HasMetadata> served = cronJobType(client);
        if (served == CronJob.class) {
            return cronJob;
        }
        HasMetadata older = client.getKubernetesSerialization().convertValue(cronJob, served);
        older.setApiVersion(HasMetadata.getApiVersion(served));
        return older;
    }

    private static void deleteBackups(KubernetesClient client, String name, String namespace) {
        client.resources(cronJobType(client)).inNamespace(namespace).withName(name + "-backup").delete();
    }

    /**
     * CronJobs are batch/v1 since Kubernetes 1.21, batch/v1beta1 before (as on the local cluster's
     * 1.20), with the same fields: the API server's discovery says which one it serves.
     */
    private static Class<? extends HasMetadata> cronJobType(KubernetesClient client) {
        return client.supports("batch/v1", "CronJob") ? CronJob.class
                : io.fabric8.kubernetes.api.model.batch.v1beta1.CronJob.class;
    }

    /** The database's password, from the Secret {@code <name>-credentials} that the user creates. */
    private static EnvVar password(String name, String variable) {
        return new EnvVarBuilder().withName(variable).withNewValueFrom().withNewSecretKeyRef()
                .withName(name + "-credentials").withKey("password").endSecretKeyRef().endValueFrom().build();
    }

    private static Map<String, String> selector(String name) {
        return Map.of("app.kubernetes.io/instance", name, "app.kubernetes.io/managed-by", MANAGER);
    }
}
