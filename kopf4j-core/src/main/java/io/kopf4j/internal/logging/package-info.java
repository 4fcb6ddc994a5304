/**
 * Kopf's log formats ({@code LogSetup}, the console and JSON encoders), the object loggers with
 * their {@code [ns/name]} prefix ({@code ObjectLogger}), and {@code EventSink}, the interface
 * through which a logged line becomes a Kubernetes Event. Exported to kopf4j-cli,
 * kopf4j-testing and Logback (for {@code LoggerColumnConverter} named in a logback.xml); not an API.
 *
 * <p>Kopf's counterpart: {@code kopf/_core/actions/loggers.py}.
 */
package io.kopf4j.internal.logging;
