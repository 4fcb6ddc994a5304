/**
 * The HTTP endpoints: Kopf's liveness endpoint, {@code /healthz}, {@code /readyz} and
 * {@code /metrics} ({@code Endpoints}).
 *
 * <p>Kopf's counterpart: {@code kopf/_core/engines/probing.py}.
 */
package io.kopf4j.internal.engines.probing;
