package io.kopf4j;

/**
 * The operator cannot log in to the cluster: no login handler returned credentials, or every
 * credential was rejected and a re-login brought no new ones. A login handler may throw it to say
 * that its source of credentials is broken (not merely absent); as in Kopf, it is an exception like
 * any other there, retried or not as the handler's errors mode says.
 *
 * <pre>{@code
 * @On.Login
 * public ConnectionInfo login() {
 *     String token = tokenService.fetch();
 *     if (token == null) {
 *         throw new LoginError("the token service has no token for this operator");   // retried after the backoff
 *     }
 *     return Logins.withKubeconfig().toBuilder().token(token).build();
 * }
 * }</pre>
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
