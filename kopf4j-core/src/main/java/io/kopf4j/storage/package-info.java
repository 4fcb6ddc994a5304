/**
 * Where kopf4j keeps its state on the objects, in Kopf's formats, so that an object handled by Kopf
 * is recognised as handled by kopf4j and the reverse: the handlers' progress
 * ({@link io.kopf4j.storage.ProgressStorage}: annotations, status, or both), the diff-base (the last
 * handled essence: {@link io.kopf4j.storage.DiffBaseStorage}), the {@link io.kopf4j.storage.Essence}
 * itself, the {@link io.kopf4j.storage.Finalizers} and the annotations' key conventions. Public: an
 * operator may choose its storages in {@link io.kopf4j.OperatorSettings}.
 *
 * <pre>{@code
 * settings.persistence.progressStorage = new StatusProgressStorage("kopf");
 * settings.persistence.diffbaseStorage = new AnnotationsDiffBaseStorage("my-operator.example.com");
 * }</pre>
 *
 * <p>Kopf's counterpart: {@code kopf/_cogs/configs/progress.py}, {@code diffbase.py},
 * {@code conventions.py}.
 */
package io.kopf4j.storage;
