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
import io.kopf4j.Children;
import io.kopf4j.On;
import io.kopf4j.OperatorSettings;
import io.kopf4j.Patch;
import io.kopf4j.PermanentError;
import io.kopf4j.Permission;
import io.kopf4j.StatusConditions;
import io.kopf4j.kits.Hierarchies;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;

/**
 * The Database operator of "Python Kubernetes Operator with kopf", the kopf4j way. For each
 * Database: a StatefulSet running the engine, a headless Service in front of it and, while
 * {@code backupEnabled}, a nightly backup CronJob, declared by one {@code @Children} method: kopf4j
 * applies them as the Database's own, so that the garbage collector deletes them with it, repairs
 * them, deletes the CronJob when backups are turned off, and keeps the {@code Ready} condition from
 * their readiness. The status says how many replicas are ready.
 *
 *   ./kopf4j run --local-cluster --crd examples/database/crd.yaml examples/database/DatabaseOperator.java
 *   kubectl apply -f examples/database/database.yaml
 *   kubectl get db,statefulsets,services,cronjobs
 *
 * The children's ports name their protocol, which the API server defaults otherwise: server-side
 * apply before Kubernetes 1.21 needs it, as a key of the ports list, and answers 500 without it.
 */
@Permission(group = "apps", resources = "statefulsets", verbs = "get")   // its ready replicas, for the status
public class DatabaseOperator {
    static final String DATABASES = "databases.techoral.com";
    private static final String MANAGER = "database-operator";
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

    /** The children are applied under the operator's own name, which their managedFields show. */
    @On.Startup
    public void configure(OperatorSettings settings) {
        settings.children.fieldManager = MANAGER;
    }

    /**
     * The Database's children, all of them, at every change of its spec or of a child: kopf4j applies
     * them (server-side apply, owned by the Database, labelled), deletes the backup CronJob when it is
     * no longer returned, puts back what someone edits by hand, and keeps the {@code Ready} condition
     * from the children's readiness (the StatefulSet's ready replicas). The status's replicas and state
     * follow the StatefulSet as its controller updates it: its change runs this again, no timer.
     */
    @Children(value = DATABASES, kinds = {StatefulSet.class, Service.class}, resources = "cronjobs.batch",
            readyCondition = "Ready")
    public List<HasMetadata> children(DatabaseSpec spec, String name, String namespace, Patch patch,
                                      StatusConditions conditions, KubernetesClient client) {
        Engine engine = engineOf(spec, patch, conditions);
        patch.status().put("endpoint", name + "." + namespace + ".svc.cluster.local:" + engine.port);
        StatefulSet live = client.apps().statefulSets().inNamespace(namespace).withName(name).get();
        int ready = live == null || live.getStatus() == null || live.getStatus().getReadyReplicas() == null ? 0
                : live.getStatus().getReadyReplicas();
        patch.status().put("readyReplicas", ready);
        patch.status().put("state", ready >= spec.replicas() ? "Ready" : ready == 0 ? "Provisioning" : "Degraded");
        List<HasMetadata> children = new ArrayList<>(List.of(statefulSet(name, spec, engine), service(name, engine)));
        if (spec.backupEnabled()) {
            children.add(backupCronJob(client, name, spec, engine));
        }
        return children;
    }

    /**
     * The garbage collector deletes the children with the Database (their owner references). The
     * backups go first, so that no backup job starts against a database being torn down.
     */
    @On.Delete(DATABASES)
    public void delete(String name, String namespace, KubernetesClient client, Logger logger) {
        client.resources(cronJobType(client)).inNamespace(namespace).withName(name + "-backup").delete();
        logger.info("Database {} cleanup complete", name);
    }

    /**
     * The engine of a valid spec (the CRD admits only known engines); for a version it does not
     * support, the Failed state and a PermanentError: retrying cannot help, and the children are
     * left as they are. The Ready condition says why.
     */
    private static Engine engineOf(DatabaseSpec spec, Patch patch, StatusConditions conditions) {
        Engine engine = spec.engine();
        if (!engine.versions.contains(spec.version())) {
            String problem = "Unsupported " + engine.id() + " version '" + spec.version() + "': expected one of " + engine.versions;
            patch.status().put("state", "Failed");
            conditions.set("Ready", false, "InvalidSpec", problem);
            throw new PermanentError(problem);
        }
        return engine;
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
