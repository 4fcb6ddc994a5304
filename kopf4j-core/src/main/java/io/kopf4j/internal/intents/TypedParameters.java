package io.kopf4j.internal.intents;

import com.fasterxml.jackson.databind.JavaType;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.kopf4j.HandlerContext;
import io.kopf4j.InvalidHandlerException;
import io.kopf4j.ObjectView;
import io.kopf4j.internal.structs.DefaultedPrimitives;
import io.kopf4j.internal.structs.TypedJson;
import java.lang.reflect.Parameter;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Handler parameters of the user's own types, converted from the object at each call: fabric8's
 * resources ({@code Pod}, {@code StatefulSet}, {@code CustomResource} subclasses) from the body, by
 * type; a record or POJO from the {@code spec}, {@code status} or {@code body}, by name. A type
 * Jackson cannot build fails the startup, naming the method and the parameter; a primitive field
 * with a {@code @Default} is warned of ({@link DefaultedPrimitives}).
 */
final class TypedParameters {
    private static final Logger LOG = LoggerFactory.getLogger(TypedParameters.class);
    /** Each trap is said once per process, however many handlers take the type. */
    private static final Set<String> WARNED = ConcurrentHashMap.newKeySet();
    /** The parts of the object a user type can be converted from, by parameter name. */
    private static final Map<String, Function<HandlerContext, ObjectView>> SOURCES = Map.of(
            "body", HandlerContext::body,
            "spec", HandlerContext::spec,
            "status", HandlerContext::status);

    private TypedParameters() {
    }

    /**
     * {@return the binder for a parameter of a user type, or null if the parameter is not one}
     *
     * @param origin the handler, as messages name it
     * @param parameter the parameter
     * @throws InvalidHandlerException if the type cannot be built from JSON
     */
    static Function<HandlerContext, Object> binderFor(String origin, Parameter parameter) {
        Class<?> type = parameter.getType();
        String source;
        if (HasMetadata.class.isAssignableFrom(type)) {
            source = "body";
        } else if (isUserType(type) && parameter.isNamePresent() && SOURCES.containsKey(parameter.getName())) {
            source = parameter.getName();
        } else {
            return null;
        }
        JavaType javaType = TypedJson.type(parameter.getParameterizedType());
        String problem = TypedJson.whyUnbuildable(javaType);
        if (problem != null) {
            throw new InvalidHandlerException("Handler " + origin + ": parameter '" + parameter.getName() + "' of type "
                    + type.getSimpleName() + " cannot be built from the object's " + source + ": " + problem
                    + "; use a record, or a class with a public no-argument constructor");
        }
        DefaultedPrimitives.of(type).stream().filter(WARNED::add).forEach(LOG::warn);
        Function<HandlerContext, ObjectView> part = SOURCES.get(source);
        String path = source.equals("body") ? "" : source;
        return context -> {
            try {
                return TypedJson.convert(part.apply(context), javaType, path);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("Handler " + origin + ": parameter '" + parameter.getName() + "': "
                        + e.getMessage(), e);
            }
        };
    }

    /** A record or class of the user's (or a library's): not a primitive, an array, a JDK or a kopf4j type. */
    private static boolean isUserType(Class<?> type) {
        String pkg = type.getPackageName();
        return !type.isPrimitive() && !type.isArray() && !pkg.equals("io.kopf4j")
                && !pkg.startsWith("java.") && !pkg.startsWith("javax.") && !pkg.startsWith("jdk.");
    }
}
