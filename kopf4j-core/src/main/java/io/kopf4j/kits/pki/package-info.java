/**
 * One certificate builder (BouncyCastle) and PEM reading and writing: for the webhook servers, and
 * exported for kopf4j-testing's local clusters.
 *
 * <p>Kopf's counterpart: the {@code certbuilder} dependency of {@code kopf/_kits/webhooks.py}.
 */
package io.kopf4j.kits.pki;
