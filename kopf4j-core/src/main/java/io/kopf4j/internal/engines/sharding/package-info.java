/**
 * Replicas splitting the objects (a kopf4j addition): {@code ShardingEngine} runs the Lease loop
 * and the view protocol and pauses the watching while the view changes; {@code Ownership}
 * implements processing's {@code Sharding}, asked at every event, by rendezvous hashing.
 *
 * <p>Kopf's counterpart: none.
 */
package io.kopf4j.internal.engines.sharding;
