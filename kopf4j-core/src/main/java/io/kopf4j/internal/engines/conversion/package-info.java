/**
 * Conversions between versions of a custom resource ({@code @On.Convert}; Kopf has none): the
 * hub-and-spoke graph checked at the start ({@code ConversionGraph}), the conversion webhook that
 * answers the API server's ConversionReviews on the admission webhook server ({@code ConversionEngine},
 * one object by {@code TypedStep}, what a version cannot hold kept by {@code ConversionData}), and
 * the CRDs' {@code spec.conversion} kept pointing at the server ({@code CrdConversions}).
 */
package io.kopf4j.internal.engines.conversion;
