package io.kopf4j.internal.reactor;

import io.kopf4j.Memo;
import io.kopf4j.OperatorException;
import io.kopf4j.OperatorSettings;
import io.kopf4j.internal.intents.HandlerRegistry;
import io.kopf4j.internal.runtime.Metrics;
import io.kopf4j.internal.runtime.OperatorChecks;
import io.kopf4j.internal.runtime.OperatorThreads;
import java.util.List;
import java.util.function.Consumer;

/**
 * What every part of one running operator is built from, made once by the composition root
 * ({@code io.kopf4j.internal.running.OperatorRuntime}) and handed down: the handlers, the namespaces served,
 * the settings (as the startup handlers left them), the operator's memo, its threads, its metrics,
 * its health checks, and where an unrecoverable failure goes.
 *
 * <pre>{@code
 * OperatorServices services = new OperatorServices(registry, List.of("default"), settings, memo,
 *         threads, endpoints.metrics(), checks, operator::fail);
 * Reactor reactor = new Reactor(services, login.client(), login.watchClient(), ...);
 * }</pre>
 *
 * @param namespaces the namespace patterns served; empty means cluster-wide
 * @param failure told when the operator cannot go on (lost credentials, an unrecoverable error in processing)
 */
public record OperatorServices(HandlerRegistry registry, List<String> namespaces, OperatorSettings settings, Memo memo,
                               OperatorThreads threads, Metrics metrics, OperatorChecks checks,
                               Consumer<OperatorException> failure) {
    public OperatorServices {
        namespaces = List.copyOf(namespaces);
    }
}
