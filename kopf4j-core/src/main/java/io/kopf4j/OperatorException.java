package io.kopf4j;

/**
 * The operator cannot start or go on: the cluster is unreachable, the credentials are lost,
 * a handler is declared wrongly. The message names what is at fault and is meant to be shown to
 * the user as one line.
 *
 * <pre>{@code
 * try (Operator operator = Operator.builder().handlers(new Example()).build()) {
 *     operator.run();
 * } catch (OperatorException e) {
 *     System.err.println("kopf4j: error: " + e.getMessage());   // one line, naming what is at fault
 * }
 * }</pre>
 */
public class OperatorException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /**
     * An error with this message.
     *
     * @param message what went wrong, in one line
     */
    public OperatorException(String message) {
        super(message);
    }

    /**
     * An error with this message and cause.
     *
     * @param message what went wrong, in one line
     * @param cause the underlying exception
     */
    public OperatorException(String message, Throwable cause) {
        super(message, cause);
    }
}
