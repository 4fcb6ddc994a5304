/**
 * The watch streams of one resource: {@code ResourceWatcher} lists, then watches from the list's
 * resourceVersion, reconnects on any failure, skips what cannot be read (naming it), and hands each
 * object's event ({@code WatchEvent}) to whoever watches: the reactor's orchestration for the
 * handlers' resources, the peering engine for its peering objects. Below both, so that neither
 * depends on the other.
 *
 * <p>Kopf's counterpart: {@code kopf/_cogs/clients/watching.py}.
 */
package io.kopf4j.internal.watching;
