package io.kopf4j.internal.intents;

import static org.assertj.core.api.Assertions.assertThat;

import io.kopf4j.Daemon;
import io.kopf4j.Handler;
import io.kopf4j.Indexer;
import io.kopf4j.On;
import io.kopf4j.Timer;
import org.junit.jupiter.api.Test;

/**
 * The one rule of handler ids (docs/handlers.md, "Handler ids"), for every kind of handler, as
 * {@code kopf4j run --verbose} lists them: the method's name or the {@code id} given, then
 * {@code /field.path} when a field is named, except for indexers (an index is named by its id alone,
 * as Kopf's {@code @kopf.index}); sub-handlers add their parent's id in front.
 */
class HandlerIdsTest {
    static final class Handlers {
        @On.Create("kopfexamples")
        public void create() {}

        @On.Update(value = "kopfexamples", field = "spec.html")
        public void html() {}

        @On.Field(value = "kopfexamples", field = "spec.size", id = "resize")
        public void size() {}

        @On.Resume("kopfexamples")
        public void resumed() {}

        @On.Event("kopfexamples")
        public void seen() {}

        @Daemon(value = "kopfexamples", field = "spec.worker")
        public void worker() {}

        @Timer(value = "kopfexamples", interval = 60)
        public void tick() {}

        @Indexer(value = "kopfexamples", field = "spec.owner")
        public String owners() {
            return null;
        }

        @On.Startup
        public void configure() {}
    }

    @Test
    void everyKindOfHandlerIsListedWithItsIdWhatDeclaredItAndItsResource() {
        HandlerRegistry registry = new HandlerRegistry();
        HandlerScanner.scan(new Handlers(), registry);
        HandlerSpec.described(Handler.update("kopfexamples").id("lambda").field("spec.colour").handle(context -> null)
                .description()).register(context -> null, registry);

        assertThat(registry.listing()).containsExactlyInAnyOrder(
                "configure: @On.Startup, Handlers.configure()",
                "create: @On.Create of kopfexamples, Handlers.create()",
                "html/spec.html: @On.Update of kopfexamples, Handlers.html()",
                "resize/spec.size: @On.Field of kopfexamples, Handlers.size()",
                "resumed: @On.Resume of kopfexamples, Handlers.resumed()",
                "lambda/spec.colour: @On.Update of kopfexamples, 'lambda' (update kopfexamples)",
                "seen: @On.Event of kopfexamples, Handlers.seen()",
                "worker/spec.worker: @Daemon of kopfexamples, Handlers.worker()",
                "tick: @Timer of kopfexamples, Handlers.tick()",
                "owners: @Indexer of kopfexamples, Handlers.owners()");
    }
}
