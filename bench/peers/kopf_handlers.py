"""The load benchmark's handlers for Kopf, as bench/BenchHandlers.java for kopf4j: a create handler
that returns a result, an update handler that returns one, a no-op delete handler (so that Kopf puts
its finalizer on every object). Each result lands in the status under the handler's id, the
function's name: status.create.generation, status.update.generation, which the benchmark waits for.
Plain functions, as in Kopf's examples: Kopf runs them in its thread pool. Kopf's default settings.
"""
import kopf


@kopf.on.create('kopf.dev', 'v1', 'kopfexamples')
def create(spec, **_):
    return {'generation': spec.get('generation')}


@kopf.on.update('kopf.dev', 'v1', 'kopfexamples')
def update(spec, **_):
    return {'generation': spec.get('generation')}


@kopf.on.delete('kopf.dev', 'v1', 'kopfexamples')
def delete(**_):
    pass
