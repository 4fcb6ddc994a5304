/**
 * In-memory indexes of objects: {@code IndexingEngine} implements processing's {@code Indexing},
 * fed as events arrive; {@code ObjectIndex} and {@code ObjectStore} are what handlers read.
 *
 * <p>Kopf's counterpart: {@code kopf/_core/engines/indexing.py}.
 */
package io.kopf4j.internal.engines.indexing;
