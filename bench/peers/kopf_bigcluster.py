"""The big-cluster benchmark's handlers for Kopf (bench/run-big.sh), as bench/BenchBigCluster.java
for kopf4j: a create and a no-op delete handler (so that Kopf puts its finalizer on the Pods) of the
Pods labelled bench=handled only. Kopf has no server-side selector: it lists and watches every Pod
of the namespace and applies the labels= filter itself. Kopf's default settings.
"""
import kopf


@kopf.on.create('pods', labels={'bench': 'handled'})
def create(**_):
    pass


@kopf.on.delete('pods', labels={'bench': 'handled'})
def delete(**_):
    pass
