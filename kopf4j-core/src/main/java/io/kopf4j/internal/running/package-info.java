/**
 * How an operator starts and stops: {@code OperatorRuntime} starts the engines in order (endpoints,
 * startup activities, login, preflight, poster, reactor, leadership, peering, sharding, watching,
 * admission) and stops them in the reverse order, and holds the readiness checks of what it runs.
 * The only package that knows every engine; the public {@code io.kopf4j.Operator} delegates to it.
 *
 * <p>Kopf's counterpart: {@code kopf/_core/reactor/running.py}.
 */
package io.kopf4j.internal.running;
