/**
 * The conversion webhook ({@code @On.Convert}): {@code ConversionWebhook}, the engine, answers the
 * API server's ConversionReviews on the admission webhook server through {@code ConversionEngine}
 * (one object by {@code TypedStep}, through the hub-and-spoke {@code intents.ConversionGraph}; what
 * a version cannot hold kept by {@code ConversionData}), and keeps the CRDs' {@code spec.conversion}
 * pointing at the server ({@code CrdConversions}).
 *
 * <p>Kopf's counterpart: none; Kopf has no conversion webhook (nolar/kopf#956), its users run a
 * separate server.
 */
package io.kopf4j.internal.engines.conversion;
