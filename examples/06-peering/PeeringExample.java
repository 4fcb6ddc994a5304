import io.kopf4j.On;

/**
 * Kopf's 06-peering: several operators for one cluster know about each other through a peering
 * object (Kopf's CRDs: peering/peering.yaml), and only the one of the highest priority handles the
 * objects. The main use: a developer's operator (--dev, priority 666) pauses the deployed ones until
 * it exits. See docs/peering.md.
 *
 *   kubectl apply -f peering/peering.yaml          # the CRDs and the "default" peering objects
 *   ./kopf4j run -v -n default examples/06-peering/PeeringExample.java          # shell A
 *   ./kopf4j run -v -n default examples/06-peering/PeeringExample.java          # shell B
 *
 * Both A and B warn about a sibling of the same priority and pause, as Kopf's do:
 * "Possibly conflicting operators with the same priority: [<Peer ...>]." Stop B (Ctrl-C) and start
 * it again with --dev: A logs "Pausing operations in favour of [<Peer ...: priority=666, ...>]." and
 * B alone handles the objects. Stop B again: A logs "Resuming operations after the pause. ..." The
 * same by hand, for A alone:
 *
 *   ./kopf4j freeze -P default -n default --lifetime 60 --priority 100
 *   ./kopf4j resume -P default -n default
 *
 * The handler does nothing: the point is which operator runs it (its id is Kopf's function name).
 */
public class PeeringExample {
    @On.Create(value = "kopfexamples", id = "create_fn")
    public void create() {
    }
}
