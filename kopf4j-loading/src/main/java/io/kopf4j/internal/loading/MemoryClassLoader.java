package io.kopf4j.internal.loading;

import io.kopf4j.OperatorException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Enumeration;
import java.util.List;
import java.util.Map;

/**
 * Defines classes from their class files in memory, below a parent loader: the classes of handler
 * sources, freshly compiled or read from the cache alike. Their resources are the files in the
 * resource directories ({@link ResourceDirectories}: next to the sources, and a Maven layout's
 * {@code src/main/resources}), after the parent's, as a jar built from them would have them.
 *
 * <pre>{@code
 * List<Class<?>> classes = new MemoryClassLoader(parent, Map.of("Handlers", bytes), List.of(Path.of("."))).loadAll();
 * }</pre>
 */
final class MemoryClassLoader extends ClassLoader {
    private final Map<String, byte[]> classes;
    private final List<Path> resourceDirectories;

    /** {@code classes}: class files by binary class name; {@code resourceDirectories}: where resources are found. */
    MemoryClassLoader(ClassLoader parent, Map<String, byte[]> classes, List<Path> resourceDirectories) {
        super(parent);
        this.classes = Map.copyOf(classes);
        this.resourceDirectories = List.copyOf(resourceDirectories);
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

    /**
     * The classes of the sources first, then the parent's: the sources given are the truth for their
     * classes. In a Maven project, {@code target/classes} on the classpath holds the last build's copy
     * of the very class being edited, which the usual parent-first order would load instead, so that
     * a reload on save would change nothing.
     */
    @Override
    protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
        if (!classes.containsKey(name)) {
            return super.loadClass(name, resolve);
        }
        synchronized (getClassLoadingLock(name)) {
            Class<?> loaded = findLoadedClass(name);
            if (loaded == null) {
                loaded = findClass(name);
            }
            if (resolve) {
                resolveClass(loaded);
            }
            return loaded;
        }
    }

    @Override
    protected Class<?> findClass(String name) throws ClassNotFoundException {
        byte[] code = classes.get(name);
        if (code == null) {
            throw new ClassNotFoundException(name);
        }
        return defineClass(name, code, 0, code.length);
    }

    @Override
    protected URL findResource(String name) {
        List<URL> found = resourceFiles(name);
        return found.isEmpty() ? null : found.getFirst();
    }

    @Override
    protected Enumeration<URL> findResources(String name) {
        return Collections.enumeration(resourceFiles(name));
    }

    private List<URL> resourceFiles(String name) {
        List<URL> found = new ArrayList<>();
        for (Path directory : resourceDirectories) {
            Path file = directory.resolve(name).normalize();
            // A name such as "../secret" finds nothing outside the directory, as in a jar.
            if (file.startsWith(directory) && Files.isRegularFile(file)) {
                found.add(HandlerSources.toUrl(file));
            }
        }
        return found;
    }
}
