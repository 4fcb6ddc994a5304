package {{package}};

import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Plural;
import io.fabric8.kubernetes.model.annotation.Version;

/**
 * A {{kind}}: the custom resource this operator serves ({{plural}}.{{group}}, version {{version}},
 * namespaced). The build generates its CRD from this class, its spec and its status, into
 * target/classes/META-INF/fabric8/{{plural}}.{{group}}-v1.yml (fabric8's crd-generator-maven-plugin).
 */
@Group("{{group}}")
@Version("{{version}}")
@Plural("{{plural}}")
public class {{kind}} extends CustomResource<{{kind}}Spec, {{kind}}Status> implements Namespaced {
}
