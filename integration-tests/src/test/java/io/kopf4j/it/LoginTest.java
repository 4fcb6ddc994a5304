package io.kopf4j.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.ServiceAccountBuilder;
import io.fabric8.kubernetes.api.model.authentication.TokenRequestBuilder;
import io.fabric8.kubernetes.api.model.authorization.v1.SelfSubjectRulesReview;
import io.fabric8.kubernetes.api.model.authorization.v1.SelfSubjectRulesReviewBuilder;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBindingBuilder;
import io.fabric8.kubernetes.api.model.rbac.RoleBindingBuilder;
import io.fabric8.kubernetes.api.model.rbac.RoleBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.kopf4j.Activity;
import io.kopf4j.ActivityError;
import io.kopf4j.ConnectionInfo;
import io.kopf4j.ErrorsMode;
import io.kopf4j.Handler;
import io.kopf4j.LoginError;
import io.kopf4j.Logins;
import io.kopf4j.On;
import io.kopf4j.Operator;
import io.kopf4j.envtest.LocalCluster;
import io.kopf4j.envtest.LocalClusterExtension;
import io.kopf4j.envtest.TemporaryNamespace;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.IntFunction;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Login handlers and Kopf's vault against the real API server, with service-account tokens
 * from its TokenRequest API: deleting a service account revokes its tokens (HTTP 401). The
 * accounts stay bound to cluster-admin, so that a rejection is never an RBAC 403.
 */
@ExtendWith(LocalClusterExtension.class)
class LoginTest {
    private static final Duration WAIT = Duration.ofSeconds(30);
    /** The login handlers' logger, as Kopf's {@code kopf.activities.authentication}. */
    private static final String ACTIVITY = "kopf.activities.authentication";
    /** The authenticator's, as Kopf's module logger ({@code kopf._core.engines.activities}). */
    private static final String AUTHENTICATOR = "io.kopf4j.internal.engines.activities";
    /** The prefix of an account's identity mark: a rule on a ConfigMap of this name and the account's. */
    private static final String IDENTITY = "identity-";

    /**
     * A token of a new service account bound to cluster-admin; deleting the account revokes it. The
     * account also gets its identity mark in the namespace (see {@link #account}).
     */
    static String token(LocalCluster cluster, String namespace, String account) {
        KubernetesClient admin = cluster.client();
        admin.serviceAccounts().inNamespace(namespace)
                .resource(new ServiceAccountBuilder().withNewMetadata().withName(account).endMetadata().build()).create();
        admin.rbac().clusterRoleBindings().resource(new ClusterRoleBindingBuilder()
                .withNewMetadata().withName(namespace + "-" + account).endMetadata()
                .withNewRoleRef().withApiGroup("rbac.authorization.k8s.io").withKind("ClusterRole").withName("cluster-admin").endRoleRef()
                .addNewSubject().withKind("ServiceAccount").withName(account).withNamespace(namespace).endSubject()
                .build()).createOr(existing -> existing.update());
        admin.rbac().roles().inNamespace(namespace).resource(new RoleBuilder()
                .withNewMetadata().withName(IDENTITY + account).endMetadata()
                .addNewRule().withApiGroups("").withResources("configmaps").withResourceNames(IDENTITY + account).withVerbs("get")
                .endRule().build()).create();
        admin.rbac().roleBindings().inNamespace(namespace).resource(new RoleBindingBuilder()
                .withNewMetadata().withName(IDENTITY + account).endMetadata()
                .withNewRoleRef().withApiGroup("rbac.authorization.k8s.io").withKind("Role").withName(IDENTITY + account).endRoleRef()
                .addNewSubject().withKind("ServiceAccount").withName(account).withNamespace(namespace).endSubject()
                .build()).create();
        return admin.serviceAccounts().inNamespace(namespace).withName(account)
                .tokenRequest(new TokenRequestBuilder().withNewSpec().withExpirationSeconds(3600L).endSpec().build())
                .getStatus().getToken();
    }

    /**
     * Deletes the service account, and waits until the API server rejects its token: it caches
     * successful token checks for about ten seconds.
     */
    static void revoke(LocalCluster cluster, String namespace, String account, String token) {
        cluster.client().serviceAccounts().inNamespace(namespace).withName(account).delete();
        ConnectionInfo info = withToken(cluster, token);
        Config config = new ConfigBuilder(Config.empty()).withMasterUrl(info.server()).withCaCertData(info.caData())
                .withOauthToken(token).withRequestRetryBackoffLimit(0).build();
        try (KubernetesClient client = new KubernetesClientBuilder().withConfig(config).build()) {
            await().atMost(WAIT).until(() -> {
                try {
                    client.getApiGroups();
                    return false;
                } catch (KubernetesClientException e) {
                    return e.getCode() == 401;
                }
            });
        }
    }

    /** The cluster's server and CA, with this token instead of the admin's client certificate. */
    static ConnectionInfo withToken(LocalCluster cluster, String token) {
        ConnectionInfo admin = Logins.withKubeconfig(cluster.kubeconfig(), null);
        return ConnectionInfo.builder(admin.server()).caData(admin.caData()).token(token).build();
    }

    /**
     * The accounts (of {@link #token}) whose credentials this client's requests carry, as the API
     * server sees them: the identity marks among the rules it grants them in the namespace (Kubernetes
     * 1.20 has no SelfSubjectReview); empty for the cluster's admin.
     */
    static String account(KubernetesClient client, String namespace) {
        SelfSubjectRulesReview review = client.authorization().v1().selfSubjectRulesReview().create(
                new SelfSubjectRulesReviewBuilder().withNewSpec().withNamespace(namespace).endSpec().build());
        return review.getStatus().getResourceRules().stream().flatMap(rule -> rule.getResourceNames().stream())
                .filter(name -> name.startsWith(IDENTITY)).map(name -> name.substring(IDENTITY.length()))
                .sorted().collect(Collectors.joining(", "));
    }

    /** Creates an object and waits until the operator has handled it. */
    private static void assertHandled(KopfExamples examples, String name) {
        examples.create(name, Map.of());
        await().atMost(WAIT).untilAsserted(() -> assertThat(examples.status(name)).containsEntry("create", "created"));
    }

    /**
     * Creates an object and waits until the operator's handler ({@link #identifying}) has reported
     * the account its requests run as.
     */
    private static void assertHandledAs(KopfExamples examples, String name, String account) {
        examples.create(name, Map.of());
        await().atMost(WAIT).until(() -> examples.status(name).containsKey("create"));
        assertThat(examples.status(name)).as("the account of the handler's requests").containsEntry("create", account);
    }

    private static Operator.Builder operator(String namespace, Activity... logins) {
        return Operator.builder()
                .handler(Handler.create("kopfexamples").id("create").handle(context -> "created"))
                .activity(logins)
                .namespaces(namespace);
    }

    /** An operator whose create handler returns the account that its own client's requests run as. */
    private static Operator.Builder identifying(String namespace, Activity... logins) {
        return Operator.builder()
                .handler(Handler.create("kopfexamples").id("create").handle(context -> account(context.client(), namespace)))
                .activity(logins)
                .namespaces(namespace);
    }

    @Test
    void theLoginHandlersCredentialsAreUsed(LocalCluster cluster, TemporaryNamespace namespace) throws Exception {
        KopfExamples examples = new KopfExamples(cluster, namespace.name());
        String token = token(cluster, namespace.name(), "operator");
        try (CapturedLogs logs = new CapturedLogs(ACTIVITY, AUTHENTICATOR);
             Operator operator = identifying(namespace.name(),
                     Activity.login("token").handle(context -> withToken(cluster, token))).build()) {
            operator.start();
            assertHandledAs(examples, "ex", "operator");
            assertThat(logs.contains("Initial authentication has been initiated.")).isTrue();
            assertThat(logs.contains("Activity 'token' succeeded.")).isTrue();
            assertThat(logs.contains("Initial authentication has finished.")).isTrue();
            assertThat(logs.contains("Re-authentication")).isFalse();
        }
    }

    @Test
    void aRejectedCredentialIsReplacedByARelogin(LocalCluster cluster, TemporaryNamespace namespace) throws Exception {
        KopfExamples examples = new KopfExamples(cluster, namespace.name());
        String token = token(cluster, namespace.name(), "operator");
        AtomicInteger logins = new AtomicInteger();
        try (CapturedLogs logs = new CapturedLogs(ACTIVITY, AUTHENTICATOR);
             Operator operator = operator(namespace.name(), Activity.login("token").handle(context ->
                     withToken(cluster, logins.incrementAndGet() == 1 ? "not-a-valid-token" : token))).build()) {
            operator.start();
            assertHandled(examples, "ex");
            assertThat(logins).hasValue(2);
            assertThat(logs.contains("Re-authentication has been initiated.")).isTrue();
            assertThat(logs.contains("Re-authentication has finished.")).isTrue();
        }
    }

    @Test
    void credentialsOfTheHighestPriorityComeFirstAndTheNextOnesTakeOver(LocalCluster cluster, TemporaryNamespace namespace)
            throws Exception {
        KopfExamples examples = new KopfExamples(cluster, namespace.name());
        String token = token(cluster, namespace.name(), "operator");
        AtomicInteger logins = new AtomicInteger();
        try (CapturedLogs logs = new CapturedLogs(ACTIVITY, AUTHENTICATOR);
             Operator operator = operator(namespace.name(),
                     Activity.login("preferred").handle(context -> {
                         logins.incrementAndGet();
                         return withToken(cluster, "revoked-long-ago").toBuilder().priority(100).build();
                     }),
                     Activity.login("fallback").handle(context -> withToken(cluster, token))).build()) {
            operator.start();
            assertHandled(examples, "ex");
            assertThat(logins).as("the fallback took over without a re-login").hasValue(1);
            assertThat(logs.contains("Re-authentication")).isFalse();
        }
    }

    @Test
    void expiredCredentialsAreRenewedBeforeUse(LocalCluster cluster, TemporaryNamespace namespace) throws Exception {
        KopfExamples examples = new KopfExamples(cluster, namespace.name());
        String first = token(cluster, namespace.name(), "first");
        String second = token(cluster, namespace.name(), "second");
        AtomicInteger logins = new AtomicInteger();
        AtomicReference<Instant> expiration = new AtomicReference<>();
        try (Operator operator = identifying(namespace.name(), Activity.login("short-lived").handle(context -> {
            if (logins.incrementAndGet() > 1) {
                return withToken(cluster, second);
            }
            expiration.set(Instant.now().plusSeconds(2));
            return withToken(cluster, first).toBuilder().expiration(expiration.get()).build();
        })).build()) {
            operator.start();
            Instant expired = expiration.get();
            await().atMost(WAIT).until(() -> Instant.now().isAfter(expired));   // no request is due before the next one
            // The first token is still good at the API server: only its expiration in the vault keeps it unused.
            assertHandledAs(examples, "ex", "second");
            assertThat(logins).as("renewed once: the second credentials do not expire").hasValue(2);
        }
    }

    /** Kopf's line of a login handler whose token service is down, retried after its backoff of 0.1 s. */
    private static final String TOKEN_SERVICE_DOWN =
            "Activity 'token' failed with an exception and will try again in 0.1 seconds: the token service is down";

    /**
     * The login handler "token", retried after 0.1 s, of a token service that is down at the attempts
     * given (counted from 1: a LoginError) and otherwise returns the credentials for the attempt.
     */
    private record FlakyTokenService(Set<Integer> down, IntFunction<ConnectionInfo> credentials, AtomicInteger attempts) {
        FlakyTokenService(Set<Integer> down, IntFunction<ConnectionInfo> credentials) {
            this(down, credentials, new AtomicInteger());
        }

        Activity login() {
            return Activity.login("token").backoff(Duration.ofMillis(100)).handle(context -> {
                int attempt = attempts.incrementAndGet();
                if (down.contains(attempt)) {
                    throw new LoginError("the token service is down");
                }
                return credentials.apply(attempt);
            });
        }
    }

    @Test
    void aLoginErrorIsRetriedUntilTheTokenServiceAnswers(LocalCluster cluster, TemporaryNamespace namespace)
            throws Exception {
        KopfExamples examples = new KopfExamples(cluster, namespace.name());
        String token = token(cluster, namespace.name(), "operator");
        FlakyTokenService tokens = new FlakyTokenService(Set.of(1, 2), attempt -> withToken(cluster, token));
        try (CapturedLogs logs = new CapturedLogs(ACTIVITY, AUTHENTICATOR);
             Operator operator = operator(namespace.name(), tokens.login()).build()) {
            operator.start();
            assertHandled(examples, "ex");
            assertThat(tokens.attempts()).as("two failures, then the credentials").hasValue(3);
            assertThat(logs.count(TOKEN_SERVICE_DOWN)).isEqualTo(2);
            assertThat(logs.contains("Initial authentication has finished.")).isTrue();
        }
    }

    @Test
    void aTokenRevokedWhileRunningIsReplacedWithoutLosingWorkThoughTheReloginFailsFirst(LocalCluster cluster,
            TemporaryNamespace namespace)
            throws Exception {
        KopfExamples examples = new KopfExamples(cluster, namespace.name());
        String first = token(cluster, namespace.name(), "first");
        String second = token(cluster, namespace.name(), "second");
        FlakyTokenService tokens = new FlakyTokenService(Set.of(2), attempt -> withToken(cluster, attempt == 1 ? first : second));
        try (CapturedLogs logs = new CapturedLogs(ACTIVITY, AUTHENTICATOR);
             Operator operator = operator(namespace.name(), tokens.login()).build()) {
            operator.start();
            assertHandled(examples, "before");

            revoke(cluster, namespace.name(), "first", first);
            assertHandled(examples, "after");
            assertThat(tokens.attempts()).as("the re-login failed once, then brought the second token").hasValue(3);
            assertThat(logs.count(TOKEN_SERVICE_DOWN)).isEqualTo(1);
            assertThat(logs.contains("Re-authentication has finished.")).isTrue();
            assertThat(operator.failure()).isEmpty();
        }
    }

    @Test
    void aLoginErrorWithErrorsPermanentFailsTheStartAsKopfsActivityError(LocalCluster cluster, TemporaryNamespace namespace) {
        AtomicInteger logins = new AtomicInteger();
        LoginError broken = new LoginError("no such vault role");
        try (CapturedLogs logs = new CapturedLogs(ACTIVITY, AUTHENTICATOR);
             Operator operator = operator(namespace.name(), Activity.login("vault").errors(ErrorsMode.PERMANENT)
                     .handle(context -> {
                         logins.incrementAndGet();
                         throw broken;
                     })).build()) {
            assertThatThrownBy(operator::start).isInstanceOf(ActivityError.class)
                    .hasMessage("One or more authentication handlers failed: 'vault': no such vault role")
                    .cause().isSameAs(broken);
            assertThat(logins).hasValue(1);
            assertThat(logs.contains("Activity 'vault' failed with an exception and will stop now: no such vault role"))
                    .isTrue();
            assertThat(operator.ready().toCompletableFuture()).isCompletedExceptionally();
        }
    }

    @Test
    void noCredentialsFailTheStart(LocalCluster cluster, TemporaryNamespace namespace) {
        try (CapturedLogs logs = new CapturedLogs(ACTIVITY, AUTHENTICATOR);
             Operator operator = operator(namespace.name(), Activity.login("nothing").handle(context -> null)).build()) {
            assertThatThrownBy(operator::start).isInstanceOf(LoginError.class).hasMessageStartingWith("Ran out of valid credentials.");
            assertThat(logs.contains("Initial authentication has failed: no credentials were retrieved from the login handlers."))
                    .isTrue();
            assertThat(operator.ready().toCompletableFuture()).isCompletedExceptionally();
        }
    }

    @Test
    void credentialsLostForGoodStopTheOperatorWithTheReason(LocalCluster cluster, TemporaryNamespace namespace)
            throws Exception {
        KopfExamples examples = new KopfExamples(cluster, namespace.name());
        String token = token(cluster, namespace.name(), "operator");
        try (Operator operator = operator(namespace.name(),
                Activity.login("same-token").handle(context -> withToken(cluster, token))).build()) {
            operator.start();
            revoke(cluster, namespace.name(), "operator", token);
            examples.create("ex", Map.of());
            assertThat(operator.awaitTermination(WAIT)).as("stopped by itself").isTrue();
            assertThat(operator.failure()).get().isInstanceOf(LoginError.class)
                    .extracting(Throwable::getMessage).asString().startsWith("Ran out of valid credentials.");
        }
    }

    public static class ServiceAccountLogin {
        static Path directory;
        static String server;

        @On.Login
        public ConnectionInfo login() {
            return Logins.withServiceAccount(directory, server);
        }

        @On.Create("kopfexamples")
        public String create() {
            return "created";
        }
    }

    @Test
    void theServiceAccountLoginReadsTheMountedFiles(LocalCluster cluster, TemporaryNamespace namespace, @TempDir Path mount)
            throws Exception {
        KopfExamples examples = new KopfExamples(cluster, namespace.name());
        ConnectionInfo admin = Logins.withKubeconfig(cluster.kubeconfig(), null);
        Files.writeString(mount.resolve("token"), token(cluster, namespace.name(), "operator") + "\n");
        Files.write(mount.resolve("ca.crt"), Base64.getDecoder().decode(admin.caData()));
        Files.writeString(mount.resolve("namespace"), namespace.name());
        ServiceAccountLogin.directory = mount;
        ServiceAccountLogin.server = admin.server();
        ConnectionInfo info = Logins.withServiceAccount(mount, admin.server());
        assertThat(info.defaultNamespace()).isEqualTo(namespace.name());
        assertThat(info.priority()).isEqualTo(Logins.SERVICE_ACCOUNT_PRIORITY);
        assertThat(Logins.withServiceAccount(mount.resolve("absent"), admin.server())).isNull();
        try (Operator operator = Operator.builder().handlers(ServiceAccountLogin.class).namespaces(namespace.name()).build()) {
            operator.start();
            assertHandled(examples, "ex");
        }
    }
}
