package io.kopf4j.bench.josdk;

import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Kind;
import io.fabric8.kubernetes.model.annotation.Version;
import java.util.Map;

/** The benchmark's objects (kopfexamples.kopf.dev v1 of examples/crd.yaml): a free-form spec and status. */
@Group("kopf.dev")
@Version("v1")
@Kind("KopfExample")
public class KopfExample extends CustomResource<Map<String, Object>, Map<String, Object>> implements Namespaced {
}
