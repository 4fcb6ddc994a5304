package io.kopf4j.loading;

import io.kopf4j.OperatorException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Defines classes from their class files in memory, below a parent loader: the classes of handler
 * sources, freshly compiled or read from the cache alike.
 *
 * <pre>{@code
 * List<Class<?>> classes = new MemoryClassLoader(parent, Map.of("Handlers", bytes)).loadAll();
 * }</pre>
 */
final class MemoryClassLoader extends ClassLoader {
    private final Map<String, byte[]> classes;

    /** {@code classes}: class files by binary class name. */
    MemoryClassLoader(ClassLoader parent, Map<String, byte[]> classes) {
        super(parent);
        this.classes = Map.copyOf(classes);
    }

    /** Every class, in the order of their names; a class that does not load is an error naming it. */
    List<Class<?>> loadAll() {
        List<Class<?>> loaded = new ArrayList<>();
        for (String name : classes.keySet().stream().sorted().toList()) {
            try {
                loaded.add(loadClass(name));
            } catch (ClassNotFoundException | LinkageError e) {
                throw new OperatorException("cannot load compiled class " + name + ": " + e, e);
            }
        }
        return loaded;
    }

    @Override
    protected Class<?> findClass(String name) throws ClassNotFoundException {
        byte[] code = classes.get(name);
        if (code == null) {
            throw new ClassNotFoundException(name);
        }
        return defineClass(name, code, 0, code.length);
    }
}
