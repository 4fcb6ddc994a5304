package io.kopf4j.internal.engines.permissions;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.kopf4j.OperatorException;
import io.kopf4j.OperatorSettings;
import io.kopf4j.internal.clients.ApiRetries;
import io.kopf4j.internal.clients.ConcurrentRequests;
import io.kopf4j.internal.intents.HandlerRegistry;
import io.kopf4j.internal.reactor.OperatorServices;
import io.kopf4j.internal.runtime.Engine;
import io.kopf4j.internal.runtime.PodEnvironment;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Checks the operator's permissions before it watches anything: every verb of every rule, asked
 * of the API server at once (one access review each, on virtual threads). A missing required
 * permission is one error naming each, with the rule to add; a missing optional one (posting
 * Events) is one warning, and the operator runs without the feature.
 *
 * <pre>{@code
 * Preflight.Outcome outcome = Preflight.check(rules, AccessReview.self(client, retries)::allowed);
 * outcome.warning().ifPresent(LOG::warn);
 * outcome.failIfIncomplete();   // OperatorException: "The operator lacks 1 permission ..."
 *
 * start(new Preflight(login.client(), services));   // the running operator's own, as an engine
 * }</pre>
 */
public final class Preflight implements Engine {
    /** One question to the API server, as {@link AccessReview#allowed} asks it. */
    @FunctionalInterface
    public interface Question {
        /**
         * Whether the credentials may do this.
         *
         * @param verb the verb, e.g. {@code "patch"}
         * @param group the API group, e.g. {@code "kopf.dev"}; empty for the core group
         * @param resource the resource's plural, with a subresource after a slash, e.g. {@code "kopfexamples/status"}
         * @param namespace the namespace to ask about; null for all namespaces or cluster-scoped resources
         * @return true if the API server grants it
         */
        boolean allowed(String verb, String group, String resource, String namespace);
    }

    private static final Logger LOG = LoggerFactory.getLogger(Preflight.class);
    /** Reviews in flight at once: enough to ask for a usual operator's rules in one round trip, few enough for the API server. */
    private static final int CONCURRENT_REVIEWS = 32;
    /** What to say about skipping the check, in both messages. */
    private static final String REMEDY = "kopf4j manifests generates the rules; kopf4j check-rbac checks them;"
            + " --no-preflight (settings.preflight.enabled = false) skips this check";

    private final KubernetesClient client;
    private final OperatorServices services;

    /**
     * The running operator's check, as an engine: it runs at {@link #start()} (see {@link #beforeWatching}).
     *
     * @param client the operator's client, with its credentials
     * @param services the handlers, settings and namespaces, which decide the rules
     */
    public Preflight(KubernetesClient client, OperatorServices services) {
        this.client = client;
        this.services = services;
    }

    @Override
    public void start() throws InterruptedException {
        beforeWatching(client, services.registry(), services.settings(), services.namespaces());
    }

    /**
     * The outcome of a check.
     *
     * @param missing the required permissions not granted: each rule with its missing verbs only
     * @param missingOptional the optional ones not granted
     */
    public record Outcome(List<Rule> missing, List<Rule> missingOptional) {
        /** Keeps immutable copies of the lists. */
        public Outcome {
            missing = List.copyOf(missing);
            missingOptional = List.copyOf(missingOptional);
        }

        /** {@return true if every required and optional permission is granted} */
        public boolean complete() {
            return missing.isEmpty() && missingOptional.isEmpty();
        }

        /** {@return the error for the missing required permissions, or empty} */
        public java.util.Optional<String> error() {
            if (missing.isEmpty()) {
                return java.util.Optional.empty();
            }
            return java.util.Optional.of("The operator lacks " + count(missing) + " it needs, and does not start (" + REMEDY + "):"
                    + describe(missing));
        }

        /** {@return the warning for the missing optional permissions, or empty} */
        public java.util.Optional<String> warning() {
            if (missingOptional.isEmpty()) {
                return java.util.Optional.empty();
            }
            return java.util.Optional.of("The operator lacks " + count(missingOptional) + " it runs without, losing"
                    + " what needs them (" + REMEDY + "):" + describe(missingOptional));
        }

        /**
         * Fails the start-up if a required permission is missing; a missing optional one is only
         * {@link #warning()}.
         *
         * @throws OperatorException with {@link #error()}, if a required permission is missing
         */
        public void failIfIncomplete() {
            error().ifPresent(message -> {
                throw new OperatorException(message);
            });
        }

        private static String count(List<Rule> rules) {
            int verbs = rules.stream().mapToInt(rule -> rule.verbs().size()).sum();
            return verbs == 1 ? "1 permission" : verbs + " permissions";
        }

        private static String describe(List<Rule> rules) {
            StringBuilder text = new StringBuilder();
            for (Rule rule : rules) {
                text.append("\n  ").append(String.join(", ", rule.verbs())).append(" on ").append(rule.resource())
                        .append(" (group ").append(rule.group().isEmpty() ? "core" : rule.group()).append(") ")
                        .append(rule.where()).append(", for ").append(String.join("; ", rule.summary()))
                        .append("\n    add to ").append(rule.clusterWide() ? "a ClusterRole" : "a Role in '" + rule.namespace() + "'")
                        .append(": ").append(rule.render());
            }
            return text.toString();
        }
    }

    /**
     * The operator's own check at start-up, after the login and before anything is watched: the
     * permissions for these handlers, settings and namespaces, asked with the operator's credentials.
     *
     * @param client the operator's client, with its credentials
     * @param registry the handlers, whose resources and kinds decide the rules
     * @param settings the operator's settings (peering, posting, admission), which add rules
     * @param namespaces the namespace patterns ({@code -n}); empty: cluster-wide
     * @throws InterruptedException if the thread is interrupted while the reviews run
     * @throws OperatorException naming every missing required permission, with the rule to add
     */
    public static void beforeWatching(KubernetesClient client, HandlerRegistry registry, OperatorSettings settings,
                                      List<String> namespaces) throws InterruptedException {
        long started = System.nanoTime();
        ApiRetries retries = ApiRetries.of(settings).busyServerOnly();
        List<Rule> rules = RequiredPermissions.derive(registry, settings, runtimeScope(client, namespaces),
                ApiCatalog.live(client, retries));
        Outcome outcome = check(rules, AccessReview.self(client, retries)::allowed);
        LOG.debug("Checked {} permission rules in {} ms", rules.size(), (System.nanoTime() - started) / 1_000_000);
        outcome.warning().ifPresent(LOG::warn);
        outcome.failIfIncomplete();
    }

    /**
     * Where the running operator's Leases and cluster-scoped objects' Events are: as the engines find them.
     *
     * @param client the operator's client: its default namespace gets the Events of cluster-scoped objects
     * @param namespaces the namespace patterns ({@code -n}); empty: cluster-wide
     * @return the scope to derive the rules in, lenient about resources that are not served
     */
    public static RequiredPermissions.Scope runtimeScope(KubernetesClient client, List<String> namespaces) {
        return new RequiredPermissions.Scope(namespaces, PodEnvironment.leaseNamespace(null, namespaces),
                client.getNamespace() != null ? client.getNamespace() : "default", false, false);
    }

    /**
     * Asks for every verb of every rule, {@value #CONCURRENT_REVIEWS} at a time.
     *
     * @param rules the rules to check, each with its verbs
     * @param review asks the API server one question, e.g. {@code AccessReview.self(client, retries)::allowed}
     * @return the rules not granted, each with its missing verbs only
     * @throws InterruptedException if the thread is interrupted while the reviews run
     * @throws OperatorException if the API server cannot be asked
     */
    public static Outcome check(List<Rule> rules, Question review) throws InterruptedException {
        List<Callable<Boolean>> questions = new ArrayList<>();
        for (Rule rule : rules) {
            for (String verb : rule.verbs()) {
                questions.add(() -> review.allowed(verb, rule.group(), rule.resource(), rule.namespace()));
            }
        }
        List<Boolean> answers;
        try {
            // At most so many reviews in flight: an operator of many explicit namespaces asks for thousands.
            answers = ConcurrentRequests.inOrder(questions, CONCURRENT_REVIEWS);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            throw new OperatorException("The operator's permissions cannot be checked: " + cause.getMessage(), cause);
        }
        List<Rule> missing = new ArrayList<>();
        List<Rule> missingOptional = new ArrayList<>();
        int answer = 0;
        for (Rule rule : rules) {
            Set<String> denied = new TreeSet<>();
            for (String verb : rule.verbs()) {
                if (!answers.get(answer++)) {
                    denied.add(verb);
                }
            }
            if (!denied.isEmpty()) {
                Rule gap = new Rule(rule.group(), rule.resource(), denied, rule.namespace(), rule.optional(), rule.reasons());
                (rule.optional() ? missingOptional : missing).add(gap);
            }
        }
        return new Outcome(missing, missingOptional);
    }
}
