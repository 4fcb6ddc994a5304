/**
 * Per-object queues, each drained by a virtual thread: every event in order, the consistency
 * deadline of the operator's own patch, and the stream pressure that cuts sleeps short. Knows
 * nothing of handlers: {@code EventProcessor} is the interface to the next stage.
 *
 * <p>Kopf's counterpart: {@code kopf/_core/reactor/queueing.py}.
 */
package io.kopf4j.internal.reactor.queueing;
