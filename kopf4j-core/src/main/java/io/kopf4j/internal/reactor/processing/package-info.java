/**
 * One event of one object, end to end: causes, event handlers, daemons spawned or stopped, the
 * finalizer decision, the consistency wait, the change handlers, the patch, the sleep and touch for
 * delays, and the throttling after unexpected errors; per object an {@code ObjectMemory}. The
 * engines beside the flow plug in through its interfaces ({@code Indexing}, {@code Spawning},
 * {@code Sharding}).
 *
 * <p>Kopf's counterpart: {@code kopf/_core/reactor/processing.py},
 * {@code kopf/_core/actions/application.py}, {@code throttlers.py}.
 */
package io.kopf4j.internal.reactor.processing;
