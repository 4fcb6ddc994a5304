/**
 * The operator's own handlers: startup, cleanup, probe and login activities, and {@code Login}: the
 * operator's clients, authenticated and re-authenticated through the credentials vault.
 *
 * <p>Kopf's counterpart: {@code kopf/_core/engines/activities.py}.
 */
package io.kopf4j.internal.engines.activities;
