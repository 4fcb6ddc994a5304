package com.example.operator;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import io.fabric8.crd.generator.annotation.PreserveUnknownFields;

/**
 * What the operator reports about a Greeting: kopf4j stores each handler's result in
 * status.HANDLER (the method's name). kopf4j's own fields there (status.kopf: the handlers'
 * progress) are kept by the API server and left out of this type.
 *
 * @param create the result of {@link GreetingOperator#create}
 * @param update the result of {@link GreetingOperator#update}, after the latest change
 */
@PreserveUnknownFields
@JsonIgnoreProperties(ignoreUnknown = true)
public record GreetingStatus(HandlerResult create, HandlerResult update) {
    /**
     * What a handler returned.
     *
     * @param message what it did
     */
    public record HandlerResult(String message) {
    }
}
