/**
 * The {@code kopf4j} command (picocli): one class per subcommand ({@code run}, {@code freeze},
 * {@code resume}, {@code webhook-configuration}, {@code envtest}, {@code init}, {@code crd},
 * {@code manifests}, {@code check-rbac}) with its helpers beside it; {@code Main} registers them.
 *
 * <pre>{@code
 * kopf4j run --local-cluster --crd examples/crd.yaml examples/01-minimal/Example.java
 * }</pre>
 *
 * <p>Kopf's counterpart: {@code kopf/cli.py}.
 */
package io.kopf4j.cli;
