/**
 * What every layer uses while the operator runs: its virtual threads, tagged with the operator's id
 * ({@code OperatorThreads}), the metrics recorder ({@code Metrics}), kopf4j's version
 * ({@code Versions}), the pod's identity from the environment, and {@code OutOfMemory}: the one
 * line and the exit when the JVM runs out of memory (any other {@code Error} is a handler's
 * failure). Exported to kopf4j-cli and kopf4j-testing; not an API.
 *
 * <p>Kopf's counterpart: {@code kopf/_cogs/aiokits}.
 */
package io.kopf4j.internal.runtime;
