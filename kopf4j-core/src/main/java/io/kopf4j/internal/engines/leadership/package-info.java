/**
 * Leader election (a kopf4j addition): {@code LeaderElection} campaigns for a Lease and pauses the
 * watching while another replica holds it.
 *
 * <p>Kopf's counterpart: none (Kopf's peering is the closest: it pauses an operator while a peer of
 * higher priority runs).
 */
package io.kopf4j.internal.engines.leadership;
