/**
 * Server-side selections of watched resources ({@code settings.watching.labelSelectors} and
 * {@code fieldSelectors}): the Kubernetes label and field selector syntax, parsed once at the start
 * so that a typo is one error naming the setting, sent to the API server with every LIST and
 * WATCH, and checked in the operator too, so that an object outside its resource's selection is
 * treated as one that no handler's filters match, whichever way it reached the operator.
 *
 * <p>Kopf's counterpart: none (Kopf 1.44 always lists and watches every object); controller-runtime's
 * {@code cache.Options.ByObject} selectors are the model.
 */
package io.kopf4j.internal.selection;
