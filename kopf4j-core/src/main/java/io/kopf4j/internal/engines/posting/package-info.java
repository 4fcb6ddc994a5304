/**
 * Kubernetes Events, posted in the background behind {@code logging.EventSink}:
 * {@code EventPoster} and its thread, {@code EventCorrelator} (client-go's event correlation:
 * similar events counted and combined, a budget per object), {@code EventSender} (the POSTs and
 * PATCHes).
 *
 * <p>Kopf's counterpart: {@code kopf/_core/engines/posting.py}.
 */
package io.kopf4j.internal.engines.posting;
