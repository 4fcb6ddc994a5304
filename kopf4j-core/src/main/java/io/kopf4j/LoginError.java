package io.kopf4j;

/**
 * The operator cannot log in to the cluster: no login handler returned credentials, or every
 * credential was rejected and a re-login brought no new ones. A login handler may throw it to say
 * that its source of credentials is broken (not merely absent); unlike other exceptions, it is not
 * retried.
 */
public class LoginError extends OperatorException {
    private static final long serialVersionUID = 1L;

    /**
     * An error with this message.
     *
     * @param message what went wrong, in one line
     */
    public LoginError(String message) {
        super(message);
    }

    /**
     * An error with this message and cause.
     *
     * @param message what went wrong, in one line
     * @param cause the underlying exception
     */
    public LoginError(String message, Throwable cause) {
        super(message, cause);
    }
}
