package io.kopf4j;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Repeatable;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * What the handlers of a class do with the API themselves, through their own client: the verbs
 * on the resources beyond those kopf4j needs for watching and patching the handled objects, in the
 * spirit of kubebuilder's RBAC markers. {@code kopf4j manifests} writes a rule for each, with a
 * comment naming the class; the start-up preflight and {@code kopf4j check-rbac} check them too.
 * In the served namespaces for namespaced resources, cluster-wide for cluster-scoped ones.
 *
 * <pre>{@code
 * @Permission(group = "apps", resources = "statefulsets", verbs = {"get", "create", "patch"})
 * @Permission(resources = "services", verbs = {"create", "patch"})     // the core group
 * @Permission(resources = "pods/log", verbs = "get")                    // a subresource
 * public class DatabaseOperator {
 *     @On.Create("databases")
 *     public void create(KubernetesClient client) { ... }
 * }
 * }</pre>
 *
 * <p>No wildcards: {@code *} as a verb or resource is rejected at start-up, naming the class.
 * Server-side apply is a {@code patch} that creates an absent object, so it needs {@code create}
 * too; fabric8's {@code edit} is a {@code get} and a {@code patch}.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
@Repeatable(Permission.List.class)
public @interface Permission {
    /** {@return the API group: empty for the core group (pods, services), e.g. {@code apps}, {@code batch}} */
    String group() default "";

    /** {@return the resources' plural names, or {@code plural/subresource}, e.g. {@code statefulsets}, {@code pods/log}} */
    String[] resources();

    /** {@return the verbs, e.g. {@code get}, {@code list}, {@code watch}, {@code create}, {@code patch}, {@code update}, {@code delete}} */
    String[] verbs();

    /**
     * The container of repeated {@link Permission} annotations; Java writes it by itself.
     *
     * <pre>{@code
     * @Permission(resources = "pods", verbs = "create")
     * @Permission(resources = "configmaps", verbs = {"get", "patch"})
     * public class Handlers { ... }
     * }</pre>
     */
    @Documented
    @Retention(RetentionPolicy.RUNTIME)
    @Target(ElementType.TYPE)
    @interface List {
        /** {@return the repeated annotations} */
        Permission[] value();
    }
}
