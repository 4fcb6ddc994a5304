package io.kopf4j;

/**
 * A handler is declared in a way kopf4j cannot serve: an unknown parameter, a missing resource
 * selector, two handlers with one id. Raised at startup, before anything is watched; the message
 * names the method.
 *
 * <pre>{@code
 * @On.Create("kopfexamples")
 * void create(Socket socket) { ... }   // no such parameter: the operator does not start, the message names create
 * }</pre>
 */
public class InvalidHandlerException extends OperatorException {
    private static final long serialVersionUID = 1L;

    /**
     * An error with this message.
     *
     * @param message what went wrong, in one line
     */
    public InvalidHandlerException(String message) {
        super(message);
    }
}
