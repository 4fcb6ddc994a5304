/**
 * kopf4j's log lines in Logback, for an application that embeds kopf4j with a logback.xml of its
 * own: the conversion word {@code kopfLogger} ({@code LoggerColumnConverter}) shows each logger as
 * Kopf shows its modules ({@code LoggerNames}), in Kopf's 20-character column. Optional: only
 * with Logback as the SLF4J backend.
 *
 * <p>Kopf's counterpart: {@code kopf/_core/engines/logging.py} (its formats).
 */
package io.kopf4j.logback;
