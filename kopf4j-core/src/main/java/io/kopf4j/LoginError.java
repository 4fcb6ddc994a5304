package io.kopf4j;

/**
 * The operator cannot log in to the cluster: no login handler returned credentials, or every
 * credential was rejected and a re-login brought no new ones. A login handler may throw it to say
 * that its source of credentials is broken (not merely absent); unlike other exceptions, it is not
 * retried.
 */
public class LoginError extends OperatorException {
    private static final long serialVersionUID = 1L;

    public LoginError(String message) {
        super(message);
    }

    public LoginError(String message, Throwable cause) {
        super(message, cause);
    }
}
