/**
 * Plain data helpers with no knowledge of handlers: JSON byte-compatible with Python's
 * {@code json.dumps} ({@code Json}), dotted field paths ({@code Dicts}), diffs between two
 * essences ({@code Diffs}), one object or many ({@code K8sObjects}, Kopf's {@code dicts.walk}),
 * object references, Kopf's duration texts and digests.
 *
 * <p>Kopf's counterpart: {@code kopf/_cogs/structs}.
 */
package io.kopf4j.structs;
