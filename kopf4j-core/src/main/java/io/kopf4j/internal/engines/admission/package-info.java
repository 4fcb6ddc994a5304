/**
 * Admission webhooks: {@code AdmissionWebhooks} starts {@code settings.admission.server} with
 * {@code AdmissionEngine}, which turns a request into a webhook cause, runs the validating and
 * mutating handlers through the actions (never the watch queues) and answers; the managed webhook
 * configurations ({@code ConfigurationManager}, {@code WebhookConfigurations}).
 *
 * <p>Kopf's counterpart: {@code kopf/_core/engines/admission.py}.
 */
package io.kopf4j.internal.engines.admission;
