package {{package}};

import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Max;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Required;

/**
 * What a {{kind}} asks for: its spec. The CRD's schema comes from these fields, with their
 * descriptions and checks, which the API server enforces before the operator sees an object.
 *
 * @param message what the operator reports back in the status; required
 * @param replicas how many of it, from 1 to 10; 1 if not given
 */
public record {{kind}}Spec(
        @Required
        @JsonPropertyDescription("What the operator reports back in the status; required.")
        String message,

        @Min(1)
        @Max(10)
        @Default("1")
        @JsonPropertyDescription("How many of it, from 1 to 10; 1 if not given.")
        Integer replicas) {
}
