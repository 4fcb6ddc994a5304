/**
 * Daemons and timers: {@code DaemonsEngine} implements processing's {@code Spawning}; per object an
 * {@code ObjectDaemons}; {@code DaemonLoop} and {@code TimerLoop} call the handlers; {@code Escalation}
 * follows Kopf's stop sequence (the flag, then a cancellation, then abandonment).
 *
 * <p>Kopf's counterpart: {@code kopf/_core/engines/daemons.py}.
 */
package io.kopf4j.internal.engines.daemons;
