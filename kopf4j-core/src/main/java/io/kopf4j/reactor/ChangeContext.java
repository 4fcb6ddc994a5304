package io.kopf4j.reactor;

import io.kopf4j.Body;
import io.kopf4j.Diff;
import io.kopf4j.HandlerContext;
import io.kopf4j.Patch;
import io.kopf4j.Reason;
import io.kopf4j.Resource;
import java.util.Map;
import org.slf4j.Logger;

/** The handler context of one changing cause of one object. */
record ChangeContext(Body body, Patch patch, Logger logger, Reason reason, Resource resource, Diff diff,
                     Map<String, Object> old, Map<String, Object> current) implements HandlerContext {
}
