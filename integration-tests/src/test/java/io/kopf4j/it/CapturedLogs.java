package io.kopf4j.it;

import io.kopf4j.internal.logging.CapturedLines;

/** The lines of some loggers (at DEBUG and above) while open, for tests of embedded operators: core's {@link CapturedLines}. */
final class CapturedLogs extends CapturedLines {
    /** @param names the loggers, each with its descendants */
    CapturedLogs(String... names) {
        super(names);
    }
}
