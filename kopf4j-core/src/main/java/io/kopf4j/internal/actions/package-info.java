/**
 * How handlers run: one execution path ({@code Execution}) for handlers, sub-handlers, event
 * handlers and activities, with their lifecycles, errors modes, retries and timeouts; the progress
 * state ({@code State}) and results; every resource handler is called through
 * {@code io.kopf4j.RunningHandler}, which makes its context the thread's (Kopf's {@code cause_var}).
 *
 * <p>Kopf's counterpart: {@code kopf/_core/actions}.
 */
package io.kopf4j.internal.actions;
