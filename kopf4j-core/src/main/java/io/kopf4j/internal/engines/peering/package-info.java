/**
 * Kopf's peering: {@code PeeringEngine} finds the peering objects and pauses the watching while a
 * peer of higher priority is alive; per peering object a {@code Neighbourhood} (its watch, the
 * evaluation and the keep-alive), {@code Peer} records in Kopf's format.
 *
 * <p>Kopf's counterpart: {@code kopf/_core/engines/peering.py}.
 */
package io.kopf4j.internal.engines.peering;
