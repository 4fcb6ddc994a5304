/**
 * {@code Reactor}: wires the four stages of the event's path below it (observation, orchestration,
 * queueing, processing) for a running operator.
 *
 * <p>Kopf's counterpart: {@code kopf/_core/reactor/running.py}.
 */
package io.kopf4j.internal.reactor;
