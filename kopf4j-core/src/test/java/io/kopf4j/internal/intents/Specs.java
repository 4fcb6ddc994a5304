package io.kopf4j.internal.intents;

import io.kopf4j.HandlerDescription;
import io.kopf4j.HandlerDescription.Option;
import io.kopf4j.HandlerKind;
import java.util.List;

/** The specification of a handler described by its options, as a builder would describe it. */
public final class Specs {
    private Specs() {
    }

    public static HandlerSpec spec(HandlerKind kind, List<String> resource, Option... options) {
        return HandlerSpec.described(new HandlerDescription(kind, resource, List.of(options)));
    }
}
