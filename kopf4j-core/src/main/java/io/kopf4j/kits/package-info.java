/**
 * What the public {@code Hierarchies} does to each object: its metadata as JSON maps or fabric8's
 * {@code ObjectMeta} ({@code ObjectMetadata}), nested templates by their JSON names
 * ({@code Fields}), and the owner's fields ({@code Owner}). Beside the engines: the event's path
 * never uses it.
 *
 * <p>Kopf's counterpart: {@code kopf/_kits/hierarchies.py}.
 */
package io.kopf4j.kits;
