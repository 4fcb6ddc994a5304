package io.kopf4j;

/**
 * What a handler reacts to: one kind per {@link On} annotation, {@link Daemon}, {@link Timer} and
 * {@link Indexer}, and per builder of {@link Handler}, {@link SubHandler} and {@link Activity}. A
 * {@link HandlerDescription} names it.
 *
 * <pre>{@code
 * Handler handler = Handler.update("kopfexamples").id("resize").handle(context -> null);
 * assert handler.description().kind() == HandlerKind.UPDATE;
 * }</pre>
 */
public enum HandlerKind {
    /** Objects created, or first seen without a record of an earlier handling ({@link On.Create}). */
    CREATE,
    /** Changes of the objects' essence ({@link On.Update}). */
    UPDATE,
    /** Objects being deleted ({@link On.Delete}). */
    DELETE,
    /** Objects that exist when the operator starts ({@link On.Resume}). */
    RESUME,
    /** Changes of one field ({@link On.Field}). */
    FIELD,
    /** Every raw watch event ({@link On.Event}). */
    EVENT,
    /** An in-memory index of the objects ({@link Indexer}). */
    INDEX,
    /** A long-running call per object ({@link Daemon}). */
    DAEMON,
    /** A call per interval per object ({@link Timer}). */
    TIMER,
    /** The children of each object, applied, watched and kept in line ({@link Children}). */
    CHILDREN,
    /** A validating admission webhook ({@link On.Validate}). */
    VALIDATE,
    /** A mutating admission webhook ({@link On.Mutate}). */
    MUTATE,
    /** A sub-handler of a changing handler ({@link SubHandler}). */
    SUBHANDLER,
    /** Before the operator watches anything ({@link On.Startup}). */
    STARTUP,
    /** When the operator stops gracefully ({@link On.Cleanup}). */
    CLEANUP,
    /** The credentials to the cluster ({@link On.Login}). */
    LOGIN,
    /** A value in the liveness endpoint's JSON ({@link On.Probe}). */
    PROBE
}
