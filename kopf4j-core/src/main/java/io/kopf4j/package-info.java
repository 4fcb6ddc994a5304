/**
 * kopf4j's public API: Kopf's handlers, errors, settings and storages in Java. Everything an
 * operator's code needs is in this package and in {@link io.kopf4j.storage}; the other packages
 * are kopf4j's internals and may change without notice.
 *
 * <h2>Handlers with annotations</h2>
 *
 * <p>A handler is a method with one of the {@link io.kopf4j.On} annotations, one per kind of
 * change, as Kopf's {@code @kopf.on.*} decorators: {@link io.kopf4j.On.Create},
 * {@link io.kopf4j.On.Update}, {@link io.kopf4j.On.Delete}, {@link io.kopf4j.On.Resume},
 * {@link io.kopf4j.On.Field} and {@link io.kopf4j.On.Event} for objects;
 * {@link io.kopf4j.Indexer} for in-memory {@link io.kopf4j.Index indexes} of objects (with their
 * {@link io.kopf4j.Store stores}), which handlers declare as parameters;
 * {@link io.kopf4j.Daemon} and {@link io.kopf4j.Timer} for work beside an object while it exists
 * (with its {@link io.kopf4j.DaemonStopped stop flag} and {@link io.kopf4j.DaemonStoppingReason reasons});
 * {@link io.kopf4j.On.Validate} and {@link io.kopf4j.On.Mutate} for admission webhooks (rejecting with
 * an {@link io.kopf4j.AdmissionError}, served by a {@link io.kopf4j.WebhookServing} such as
 * {@link io.kopf4j.kits.webhooks.WebhookServer} set in {@code settings.admission.server});
 * {@link io.kopf4j.On.Startup}, {@link io.kopf4j.On.Cleanup}, {@link io.kopf4j.On.Login} and
 * {@link io.kopf4j.On.Probe} for the operator itself. The resource is named as in Kopf and
 * resolved through the API server's discovery: {@code "kopfexamples"},
 * {@code "kopfexamples.kopf.dev"} or {@code {"kopf.dev", "v1", "kopfexamples"}}. A handler's
 * non-null result is stored in the object's {@code status.<handler id>}; the handler id is the
 * method name unless the annotation gives one.
 *
 * <pre>{@code
 * public class Example {
 *     @On.Create("kopfexamples")
 *     public Map<String, Object> create(Spec spec, String name, Logger logger) {
 *         logger.info("Created {} with spec: {}", name, spec);
 *         return Map.of("message", "Resource " + name + " created successfully");
 *     }
 *
 *     @On.Update(value = "kopfexamples", field = "spec.size", labels = "app=web", retries = 3)
 *     public void resize(Object old, Object current, Patch patch) {
 *         patch.status().put("size", current);
 *     }
 *
 *     @On.Delete("kopfexamples")
 *     public void delete(String name, Logger logger) {
 *         logger.info("Deleting {}", name);
 *     }
 * }
 * }</pre>
 *
 * <p>Changing handlers (create, update, delete, resume, field) follow Kopf's semantics: their
 * progress is kept on the object, so each runs once per change, across restarts; a failing one is
 * retried after its {@code backoff} until it succeeds, exceeds its {@code retries} or
 * {@code timeout}, or fails permanently. Delete handlers hold the deletion with a finalizer unless
 * {@code optional}. Event handlers see every raw watch event and are never retried. Filters
 * ({@code labels}, {@code annotations}, {@code field}, {@code fieldValue}, {@code oldValue},
 * {@code newValue}, and {@code when} with {@link io.kopf4j.Filter} classes) choose the objects and
 * changes a handler runs for.
 *
 * <h2>Handlers with builders</h2>
 *
 * <p>Lambdas, handlers built at run time and tests use {@link io.kopf4j.Handler} and
 * {@link io.kopf4j.Activity}: the same kinds and options, with predicates as filters. The
 * function is a {@link io.kopf4j.HandlerFn} (or {@link io.kopf4j.ActivityFn}) that gets the whole
 * {@link io.kopf4j.HandlerContext} (or {@link io.kopf4j.ActivityContext}). Such handlers need an
 * explicit id, since it names their progress on the objects. A builder makes a
 * {@link io.kopf4j.HandlerDescription} (its {@link io.kopf4j.HandlerKind}, resource and options,
 * filters as {@link io.kopf4j.Condition}s); the operator's builder checks it against Kopf's rules
 * when it registers the handler.
 *
 * <pre>{@code
 * Operator.builder()
 *     .handler(Handler.create("kopfexamples").id("create")
 *             .handle(context -> Map.of("message", "hello " + context.name())))
 *     .handler(Handler.update("kopfexamples").id("resize").field("spec.size")
 *             .label("app", "web").retries(3)
 *             .handle(context -> Map.of("size", context.current())))
 *     .activity(Activity.startup("configure").handle(context -> {
 *         context.settings().execution.defaultBackoff = Duration.ofSeconds(10);
 *         return null;
 *     }))
 *     .build();
 * }</pre>
 *
 * <h2>What a handler may declare</h2>
 *
 * <p>An annotated method declares only the parameters it needs, in any order. They are bound by
 * type: {@link io.kopf4j.Body}, {@link io.kopf4j.Spec}, {@link io.kopf4j.Meta},
 * {@link io.kopf4j.Status}, {@link io.kopf4j.Patch}, {@link io.kopf4j.Diff},
 * {@link io.kopf4j.Resource}, {@link io.kopf4j.Reason}, {@link org.slf4j.Logger},
 * {@link io.kopf4j.Memo}, fabric8's {@code KubernetesClient} (the operator's own, see
 * {@link io.kopf4j.HandlerContext#client()}) and {@link io.kopf4j.HandlerContext} (all of them at once); or by name
 * (compile with {@code javac -parameters}): {@code String name}, {@code String namespace},
 * {@code String uid}, {@code Map labels}, {@code Map annotations}, {@code Object old},
 * {@code Object current}, {@code Object param}, {@code int retry}, {@code Instant started},
 * {@code Duration runtime}, and for event handlers {@code String type} and {@code Map event}. The
 * accessors of {@link io.kopf4j.HandlerContext} say what each one holds. A parameter that fits
 * nothing fails the start with an {@link io.kopf4j.InvalidHandlerException} naming the method.
 * Operator-level handlers may declare {@link io.kopf4j.OperatorSettings}, {@link io.kopf4j.Memo},
 * {@link org.slf4j.Logger}, {@code int retry}, {@code KubernetesClient} (cleanup and probe handlers: startup
 * and login handlers run before the login) or one {@link io.kopf4j.ActivityContext}.
 *
 * <h2>Children</h2>
 *
 * <p>Handlers create children with the operator's own client ({@code KubernetesClient}), and
 * {@link io.kopf4j.kits.Hierarchies} (Kopf's {@code kopf.adopt} and its parts) makes them the handled
 * object's own before they are sent: owner reference, name, namespace and labels.
 *
 * <pre>{@code
 * @On.Create("kopfexamples")
 * public void create(KubernetesClient client) {
 *     Pod pod = new PodBuilder().withNewSpec().addNewContainer().withName("main").withImage("busybox")
 *             .endContainer().endSpec().build();
 *     Hierarchies.adopt(pod);
 *     client.pods().resource(pod).create();
 * }
 * }</pre>
 *
 * <h2>Permissions</h2>
 *
 * <p>What handlers do with the API themselves, beyond watching and patching their objects, is
 * declared on their class with {@link io.kopf4j.Permission} (repeatable): {@code kopf4j manifests}
 * writes the least-privilege RBAC from it and from what kopf4j itself does, and the operator checks
 * it before watching ({@code settings.preflight}).
 *
 * <pre>{@code
 * @Permission(group = "apps", resources = "statefulsets", verbs = {"get", "create", "patch"})
 * public class DatabaseOperator { ... }
 * }</pre>
 *
 * <h2>Errors</h2>
 *
 * <p>As in Kopf, what a handler throws decides what happens next:
 * <ul>
 *   <li>{@link io.kopf4j.TemporaryError}: retried after its {@link io.kopf4j.TemporaryError#delay()
 *       delay};</li>
 *   <li>{@link io.kopf4j.PermanentError}: not retried for this change;</li>
 *   <li>any other exception: as the handler's {@link io.kopf4j.ErrorsMode} says (retried after the
 *       backoff by default);</li>
 *   <li>a handler that runs out of {@code retries} or {@code timeout} fails with
 *       {@link io.kopf4j.HandlerRetriesError} or {@link io.kopf4j.HandlerTimeoutError}.</li>
 * </ul>
 * The operator itself reports what stops it as an {@link io.kopf4j.OperatorException}: an
 * {@link io.kopf4j.InvalidHandlerException} for a handler declared wrongly, a
 * {@link io.kopf4j.LoginError} when it cannot log in.
 *
 * <h2>Settings</h2>
 *
 * <p>{@link io.kopf4j.OperatorSettings} are Kopf's {@code kopf.OperatorSettings}, grouped and named
 * alike, with Kopf's defaults: pass them with
 * {@link io.kopf4j.Operator.Builder#settings(OperatorSettings)}, or change them in
 * {@link io.kopf4j.On.Startup} handlers. {@link io.kopf4j.Lifecycles} are Kopf's choices of which
 * pending handlers run per cycle ({@code settings.execution.lifecycle}).
 *
 * <h2>Embedding</h2>
 *
 * <p>{@code kopf4j run} runs handlers from the command line; an application runs an
 * {@link io.kopf4j.Operator} itself. Several operators may run in one JVM; they share nothing.
 *
 * <pre>{@code
 * try (Operator operator = Operator.builder()
 *         .handlers(new Example())
 *         .namespaces("default")
 *         .healthProbeAddress(":8081")
 *         .build()) {
 *     operator.start();             // startup handlers, login, watching
 *     operator.awaitTermination();  // until stop() or close() from another thread
 * }
 * }</pre>
 *
 * <p>It logs in with the {@link io.kopf4j.On.Login} handlers, or as Kopf does without them
 * ({@link io.kopf4j.Logins}: the pod's service account, then the kubeconfig); credentials are a
 * {@link io.kopf4j.ConnectionInfo}. Extra {@code /healthz} and {@code /readyz} checks are
 * {@link io.kopf4j.HealthCheck}s.
 *
 * <h2>Storages</h2>
 *
 * <p>kopf4j keeps its state on the objects in Kopf's formats, so an object handled by Kopf is
 * handled on by kopf4j and back: handlers' progress in a
 * {@link io.kopf4j.storage.ProgressStorage} (by default
 * {@link io.kopf4j.storage.MultiProgressStorage#smart(String) annotations, plus Kopf's old status
 * field read-only}), the last handled state in a {@link io.kopf4j.storage.DiffBaseStorage} (the
 * {@code last-handled-configuration} annotation), and a finalizer
 * ({@link io.kopf4j.storage.Finalizers#DEFAULT}). Choose them in
 * {@link io.kopf4j.OperatorSettings.Persistence}: {@link io.kopf4j.storage.AnnotationsProgressStorage},
 * {@link io.kopf4j.storage.StatusProgressStorage}, {@link io.kopf4j.storage.AnnotationsDiffBaseStorage},
 * {@link io.kopf4j.storage.StatusDiffBaseStorage} and their {@code Multi*} combinations.
 *
 * <h2>More</h2>
 *
 * <p>The repository's {@code docs/} folder goes further: {@code handlers.md} (kinds, filters,
 * sub-handlers, Kopf compatibility), {@code hierarchies.md} (children), {@code settings.md},
 * {@code login.md}, {@code embedding.md}, {@code logging.md}, {@code metrics.md} (metrics and health probes),
 * {@code operations.md} (running in a cluster), {@code testing.md} (testing operators against a
 * real API server with kopf4j-testing) and {@code performance.md}.
 *
 * <p>Kopf's counterpart: {@code kopf/__init__.py} and {@code kopf/on.py}.
 */
package io.kopf4j;
