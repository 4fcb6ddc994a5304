/**
 * Plain data helpers with no knowledge of handlers, below the public vocabulary: JSON
 * byte-compatible with Python's {@code json.dumps} ({@code Json}), dotted field paths
 * ({@code Dicts}), one object or many ({@code K8sObjects}, Kopf's {@code dicts.walk}), object
 * references, Kopf's duration texts and digests. (Kopf's diffs are {@code io.kopf4j.Diff}'s own.)
 *
 * <p>Kopf's counterpart: {@code kopf/_cogs/structs}.
 */
package io.kopf4j.internal.structs;
