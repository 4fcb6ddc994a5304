package io.kopf4j.engines;

import io.kopf4j.Memo;
import io.kopf4j.OperatorException;
import io.kopf4j.OperatorSettings;
import io.kopf4j.PermanentError;
import io.kopf4j.TemporaryError;
import io.kopf4j.intents.ActivityHandler;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs Kopf's activities (startup, cleanup): all handlers at once, again and again until all have
 * succeeded, sleeping until the earliest retry; a TemporaryError waits its delay, other exceptions
 * the backoff, a PermanentError or exhausted retries fail the activity (and so the operator's start).
 */
public final class Activities {
    private Activities() {
    }

    public static void run(String kind, List<ActivityHandler> handlers, OperatorSettings settings, Memo memo)
            throws InterruptedException {
        Logger logger = LoggerFactory.getLogger("kopf.activities." + kind);
        List<ActivityHandler> pending = new ArrayList<>(handlers);
        int retry = 0;
        while (!pending.isEmpty()) {
            Duration sleep = null;
            for (ActivityHandler handler : List.copyOf(pending)) {
                String name = "Handler '" + handler.id() + "'";
                Duration delay;
                try {
                    handler.call(settings, memo, logger, retry);
                    logger.info("{} succeeded.", name);
                    pending.remove(handler);
                    continue;
                } catch (PermanentError e) {
                    throw new OperatorException(kind + " " + name + " failed permanently: " + e.getMessage(), e);
                } catch (TemporaryError e) {
                    logger.error("{} failed temporarily: {}", name, e.getMessage());
                    delay = e.delay();
                } catch (InterruptedException e) {
                    throw e;
                } catch (Exception e) {
                    logger.error("{} failed with an exception. Will retry.", name, e);
                    delay = handler.backoff() == null ? settings.execution.defaultBackoff : handler.backoff();
                }
                if (handler.retries() != null && retry + 1 >= handler.retries()) {
                    throw new OperatorException(kind + " " + name + " failed " + (retry + 1) + " times; no retries left");
                }
                sleep = sleep == null || delay.compareTo(sleep) < 0 ? delay : sleep;
            }
            if (!pending.isEmpty()) {
                Thread.sleep(sleep);
                retry++;
            }
        }
    }
}
