package io.kopf4j.engines;

import io.kopf4j.LoginError;
import io.kopf4j.Memo;
import io.kopf4j.OperatorException;
import io.kopf4j.OperatorSettings;
import io.kopf4j.PermanentError;
import io.kopf4j.TemporaryError;
import io.kopf4j.intents.ActivityHandler;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs Kopf's activities (startup, cleanup, login): all handlers at once, again and again until all
 * have succeeded, sleeping until the earliest retry; a TemporaryError waits its delay, other
 * exceptions the backoff, a PermanentError or exhausted retries fail the activity (and so the
 * operator's start). A {@link LoginError} fails it as it is, its message meant for the user.
 */
public final class Activities {
    private Activities() {
    }

    /** Runs the handlers to success; returns their non-null results by handler id. */
    public static Map<String, Object> run(String kind, List<ActivityHandler> handlers, OperatorSettings settings, Memo memo)
            throws InterruptedException {
        Logger logger = LoggerFactory.getLogger("kopf.activities." + kind);
        Map<String, Object> results = new LinkedHashMap<>();
        List<ActivityHandler> pending = new ArrayList<>(handlers);
        int retry = 0;
        while (!pending.isEmpty()) {
            Duration sleep = null;
            for (ActivityHandler handler : List.copyOf(pending)) {
                Duration delay;
                try {
                    Object result = handler.call(settings, memo, logger, retry);
                    logger.info("{} succeeded.", handler);
                    if (result != null) {
                        results.put(handler.id(), result);
                    }
                    pending.remove(handler);
                    continue;
                } catch (LoginError e) {
                    throw e;
                } catch (PermanentError e) {
                    throw new OperatorException(kind + " handler '" + handler.id() + "' failed permanently: " + e.getMessage(), e);
                } catch (TemporaryError e) {
                    logger.error("{} failed temporarily: {}", handler, e.getMessage());
                    delay = e.delay();
                } catch (InterruptedException e) {
                    throw e;
                } catch (Exception e) {
                    logger.error("{} failed with an exception. Will retry.", handler, e);
                    delay = handler.backoff() == null ? settings.execution.defaultBackoff : handler.backoff();
                }
                if (handler.retries() != null && retry + 1 >= handler.retries()) {
                    throw new OperatorException(kind + " handler '" + handler.id() + "' failed " + (retry + 1)
                            + " times; no retries left");
                }
                sleep = sleep == null || delay.compareTo(sleep) < 0 ? delay : sleep;
            }
            if (!pending.isEmpty()) {
                Thread.sleep(sleep);
                retry++;
            }
        }
        return results;
    }
}
