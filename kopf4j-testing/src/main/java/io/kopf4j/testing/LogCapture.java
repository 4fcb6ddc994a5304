package io.kopf4j.testing;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.PatternLayout;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.AppenderBase;
import io.kopf4j.internal.logging.LogSetup;
import io.kopf4j.internal.runtime.OperatorThreads;
import org.slf4j.LoggerFactory;

/**
 * Collects the formatted log lines of one operator run, in Kopf's "full" format: lines tagged with
 * this run's operator id, and untagged lines (the runner's own thread, libraries). Lines of other
 * operators running in the same JVM are left out.
 */
final class LogCapture extends AppenderBase<ILoggingEvent> {
    private final StringBuffer output = new StringBuffer();
    private final PatternLayout layout = new PatternLayout();
    private volatile String operatorId;

    LogCapture() {
        LoggerContext context = (LoggerContext) LoggerFactory.getILoggerFactory();
        setContext(context);
        setName("kopf4j-runner-capture");
        layout.setContext(context);
        layout.setPattern(LogSetup.FULL_PATTERN);
        layout.start();
        start();
        root().addAppender(this);
    }

    void operatorId(String id) {
        this.operatorId = id;
    }

    String output() {
        return output.toString();
    }

    void detach() {
        root().detachAppender(this);
        stop();
    }

    @Override
    protected void append(ILoggingEvent event) {
        String tag = event.getMDCPropertyMap().get(OperatorThreads.MDC_KEY);
        if (tag == null || tag.equals(operatorId)) {
            output.append(layout.doLayout(event));
        }
    }

    private static Logger root() {
        return (Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
    }
}
