/**
 * What to serve: the handlers' resources resolved through discovery ({@code ResourceInsights}: what
 * is served, what is not and why; {@code ClosestResourceName}: the "did you mean ...?" of an
 * unresolved one), the namespaces matching the patterns, and the CRDs that appear and vanish
 * ({@code Observer}).
 *
 * <p>Kopf's counterpart: {@code kopf/_core/reactor/observation.py}.
 */
package io.kopf4j.internal.reactor.observation;
