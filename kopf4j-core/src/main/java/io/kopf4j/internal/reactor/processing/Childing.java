package io.kopf4j.internal.reactor.processing;

import io.kopf4j.Resource;
import io.kopf4j.internal.intents.SpawningCause;
import java.util.Map;

/**
 * The children of the objects ({@code @Children}), as processing sees them: one
 * {@link ObjectChildren} per object, asked at each of its events. The children engine implements
 * it, so that the reactor never depends on the engines; {@link #NONE} serves operators without
 * children handlers at no cost.
 *
 * <pre>{@code
 * ObjectChildren children = childing.object(resource, uid, () -> queue.accept(WatchEvent.recheck(latest)));
 * children.reconcile(cause, essence);   // at each event of the object
 * }</pre>
 */
public interface Childing {
    /** For operators without children handlers: processing never asks for them. */
    Childing NONE = new Childing() {
        @Override
        public ObjectChildren object(Resource resource, String uid, Runnable recheck) {
            throw new IllegalStateException("this operator has no children handlers");
        }

        @Override
        public void pause() {
        }

        @Override
        public void resume() {
        }
    };

    /**
     * The children of one object, kept with the object's memory until it is deleted or handed over.
     *
     * @param uid the object's uid, which its children's controller owner reference names
     * @param recheck queues the object for processing again with its latest body (a child changed,
     *                or a retry is due), without an API request
     */
    ObjectChildren object(Resource resource, String uid, Runnable recheck);

    /** The operator pauses (peering, a lost leadership): no child is written until {@link #resume()}. */
    void pause();

    /** The operator resumes: the objects whose children changed meanwhile run at their next event. */
    void resume();

    /** One object's children. */
    interface ObjectChildren {
        /**
         * Runs the object's children handlers and applies what they return, if due: at the object's
         * first event, when its essence changed since the last run, when a child changed, when a
         * retry is due; never while the object is being deleted.
         *
         * @param cause this event of the object; the ready condition goes into its patch
         * @param essence the object's essence at this event (what change detection compares)
         */
        void reconcile(SpawningCause cause, Map<String, Object> essence);

        /** The object is deleted, or another replica handles it: forget it, cancel its retry. */
        void gone();
    }
}
