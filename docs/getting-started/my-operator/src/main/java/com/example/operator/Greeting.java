package com.example.operator;

import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Plural;
import io.fabric8.kubernetes.model.annotation.Version;

/**
 * A Greeting: the custom resource this operator serves (greetings.example.com, version v1,
 * namespaced). The build generates its CRD from this class, its spec and its status, into
 * target/classes/META-INF/fabric8/greetings.example.com-v1.yml (fabric8's crd-generator-maven-plugin).
 */
@Group("example.com")
@Version("v1")
@Plural("greetings")
public class Greeting extends CustomResource<GreetingSpec, GreetingStatus> implements Namespaced {
}
