/**
 * One certificate builder (BouncyCastle) and PEM reading and writing: for the webhook servers, and
 * exported to kopf4j-envtest for its local clusters.
 *
 * <p>Kopf's counterpart: the {@code certbuilder} dependency of {@code kopf/_kits/webhooks.py}.
 */
package io.kopf4j.internal.pki;
