package io.kopf4j.cli;

import java.util.function.Consumer;
import sun.misc.Signal;

/**
 * Catches SIGINT and SIGTERM so that the operator stops gracefully and the command exits 0, as
 * Kopf does. (A JVM shutdown hook alone would exit 130 or 143.) The callback runs on its own
 * thread, as a signal handler must return at once.
 */
final class Signals {
    private Signals() {
    }

    static void onTermination(Consumer<String> callback) {
        for (String name : new String[]{"INT", "TERM"}) {
            Signal.handle(new Signal(name), signal ->
                    Thread.ofPlatform().name("kopf4j-signal").start(() -> callback.accept("SIG" + signal.getName())));
        }
    }
}
