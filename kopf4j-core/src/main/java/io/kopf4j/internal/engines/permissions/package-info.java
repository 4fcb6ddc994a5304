/**
 * The operator's RBAC, derived from the operator itself: {@code RequiredPermissions} turns the
 * registry, the handler classes' {@code @Permission}s, the settings and the served namespaces into
 * {@code Rule}s with their reasons; {@code Preflight} asks the API server for each verb before
 * watching. Exported to kopf4j-cli ({@code kopf4j manifests}, {@code kopf4j check-rbac}) and kopf4j-envtest.
 *
 * <p>Kopf's counterpart: none (Kopf's RBAC is written by hand).
 */
package io.kopf4j.internal.engines.permissions;
