/**
 * One watcher (a LIST, then a WATCH) per resource and namespace, keyed by {@code WatcherKey}, and
 * the pause and resume of all of them, which peering, leader election and sharding ask for under
 * their own names.
 *
 * <p>Kopf's counterpart: {@code kopf/_core/reactor/orchestration.py},
 * {@code kopf/_cogs/clients/watching.py}.
 */
package io.kopf4j.internal.reactor.orchestration;
