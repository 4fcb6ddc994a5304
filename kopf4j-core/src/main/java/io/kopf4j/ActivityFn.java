package io.kopf4j;

/**
 * An operator-level handler as a function. What it returns depends on the activity: a login
 * returns a {@link ConnectionInfo} (or null: no credentials from it), a probe its result for the
 * liveness endpoint; startup and cleanup results are ignored.
 *
 * <pre>{@code
 * ActivityFn login = context -> ConnectionInfo.builder("https://10.0.0.1:6443").token(readToken()).build();
 * }</pre>
 */
@FunctionalInterface
public interface ActivityFn {
    /**
     * Runs the handler.
     *
     * @param context what the handler may use
     * @return a {@link ConnectionInfo} for logins, the result for probes; ignored otherwise
     * @throws Exception to be retried (per the handler's errors mode), or a {@link PermanentError} to fail at once
     */
    Object call(ActivityContext context) throws Exception;
}
