package io.kopf4j.internal.structs;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.BeanDescription;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonSerializer;
import com.fasterxml.jackson.databind.SerializationConfig;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.ser.BeanSerializerModifier;
import com.fasterxml.jackson.databind.ser.std.BeanSerializerBase;
import com.fasterxml.jackson.databind.ser.std.ToEmptyObjectSerializer;
import java.io.IOException;

/**
 * A Jackson module that refuses to write the JDK's own classes as beans: a thread, a class loader, a
 * stream or a socket has getters, so Jackson would write it as an object of whatever they return
 * (a thread's stack trace, its group, ...) and the API server would store that garbage. Such a value
 * is no data: writing it fails, naming its type. The JDK's value types (strings, numbers, maps,
 * collections, {@code java.time}, enums, records) are never beans to Jackson, so they are untouched,
 * and so are the application's own records and POJOs.
 *
 * <pre>{@code
 * ObjectMapper mapper = new ObjectMapper().registerModule(NoJdkBeans.module());
 * mapper.writeValueAsString(new Thread(() -> { }));   // JsonMappingException: a java.lang.Thread is no data ...
 * }</pre>
 */
final class NoJdkBeans extends BeanSerializerModifier {
    private static final long serialVersionUID = 1L;

    private NoJdkBeans() {
    }

    static SimpleModule module() {
        return new SimpleModule("kopf4j-no-jdk-beans").setSerializerModifier(new NoJdkBeans());
    }

    @Override
    public JsonSerializer<?> modifySerializer(SerializationConfig config, BeanDescription description, JsonSerializer<?> serializer) {
        // Called for every serializer Jackson makes; only those that write a class as a bean are in question,
        // and those that write it as an empty object (Jackson's choice for class loaders and the like).
        Class<?> type = description.getBeanClass();
        boolean asObject = serializer instanceof BeanSerializerBase || serializer instanceof ToEmptyObjectSerializer;
        return asObject && fromTheJdk(type) ? new Refusal(type) : serializer;
    }

    /** The class or one of its superclasses (the roots of all data aside) is the JDK's: a thread subclass is a thread. */
    private static boolean fromTheJdk(Class<?> type) {
        for (Class<?> current = type; current != null && current != Object.class && current != Record.class
                && current != Enum.class; current = current.getSuperclass()) {
            String module = current.getModule().getName();
            if (module != null && (module.startsWith("java.") || module.startsWith("jdk."))) {
                return true;
            }
        }
        return false;
    }

    private static final class Refusal extends JsonSerializer<Object> {
        private final Class<?> type;

        Refusal(Class<?> type) {
            this.type = type;
        }

        @Override
        public void serialize(Object value, JsonGenerator generator, SerializerProvider provider) throws IOException {
            throw JsonMappingException.from(generator, "a " + type.getName() + " is no data (not a map, a list, a string,"
                    + " a number, a boolean, a record or a POJO of the application's own)");
        }
    }
}
