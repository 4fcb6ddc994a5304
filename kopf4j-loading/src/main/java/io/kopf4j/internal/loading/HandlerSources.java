package io.kopf4j.internal.loading;

import io.kopf4j.OperatorException;
import io.kopf4j.internal.intents.HandlerScanner;
import java.io.IOException;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;

/**
 * Loads the handler classes named on the command line: a {@code .java} source file (compiled in
 * memory, or its classes cached by an earlier start: {@link SourceClasses}), a {@code .jar} (every
 * class in it that declares handlers), or a class name on the classpath; and, like Kopf's
 * {@code -m}, modules: a class or a package on the classpath (every class in it that declares
 * handlers). Anything that yields no handler class is an error naming the item.
 *
 * <pre>{@code
 * List<Class<?>> classes = HandlerSources.load(List.of("Example.java", "handlers.jar"), List.of("com.example.operator"));
 * }</pre>
 */
public final class HandlerSources {
    private HandlerSources() {
    }

    /**
     * Whether this process has compiled handler sources (none of them was in the class cache, or a
     * reload compiled them): it has then loaded the JDK's compiler, which a start from the class cache
     * never does, so its classes are not those of a usual start (the launcher's AOT cache, see
     * {@code io.kopf4j.cli.AotRecording}).
     *
     * @return true once the compiler has run in this process
     */
    public static boolean compiledInThisProcess() {
        return SourceClasses.compiledInThisProcess();
    }

    /**
     * The handler classes of these files and classes, then of these modules (classes or packages).
     *
     * @param items {@code .java} files, {@code .jar} files or class names, e.g. {@code "Example.java"}
     * @param modules classes or packages on the classpath, e.g. {@code "com.example.operator"}
     * @return the classes that declare handlers, in the order given
     * @throws OperatorException naming an item that yields no handler class
     */
    public static List<Class<?>> load(List<String> items, List<String> modules) {
        ClassLoader parent = Thread.currentThread().getContextClassLoader();
        List<Class<?>> handlers = new ArrayList<>();
        for (String item : items) {
            handlers.addAll(withHandlers(item, loadOne(item, parent, "handlers")));
        }
        for (String module : modules) {
            handlers.addAll(withHandlers("module " + module, loadModule(module, parent)));
        }
        return handlers;
    }

    /**
     * Every class of one item given as handlers are, for commands that look for other classes in
     * them ({@code kopf4j crd}: custom resources): all classes of a {@code .java} file or a
     * {@code .jar} (those that load), or the named class on the classpath.
     *
     * <pre>{@code
     * List<Class<?>> classes = HandlerSources.classes("Widget.java", "custom resources");
     * }</pre>
     *
     * @param item a {@code .java} file, a {@code .jar} file or a class name, e.g. {@code "Widget.java"}
     * @param what what the classes are for, as errors name it: "custom resources not found: ..."
     * @return every class of it that loads
     */
    public static List<Class<?>> classes(String item, String what) {
        return loadOne(item, Thread.currentThread().getContextClassLoader(), what);
    }

    private static List<Class<?>> withHandlers(String item, List<Class<?>> classes) {
        List<Class<?>> found = classes.stream().filter(HandlerScanner::declaresHandlers).toList();
        if (found.isEmpty()) {
            throw new OperatorException("no kopf4j handlers in " + item + ": no method is annotated with @On.*");
        }
        return found;
    }

    private static List<Class<?>> loadModule(String module, ClassLoader parent) {
        if (!module.matches("[\\p{javaJavaIdentifierStart}][\\p{javaJavaIdentifierPart}.]*")) {
            throw new OperatorException("invalid module '" + module + "': expected a class or package name, e.g. com.example.operator");
        }
        try {
            return List.of(Class.forName(module, true, parent));
        } catch (ClassNotFoundException notAClass) {
            List<String> names = Classpath.classesIn(module);
            if (names.isEmpty()) {
                throw new OperatorException("module not found: '" + module + "' is neither a class nor a package on the"
                        + " classpath (add jars and folders to $CLASSPATH)");
            }
            return loadable(names, parent);
        } catch (LinkageError e) {
            throw new OperatorException("cannot load handler class " + module + ": " + e, e);
        }
    }

    private static List<Class<?>> loadOne(String item, ClassLoader parent, String what) {
        if (item.endsWith(".java")) {
            return SourceClasses.load(List.of(existing(item, what)), parent);
        }
        if (item.endsWith(".jar")) {
            return fromJar(existing(item, what), parent);
        }
        try {
            return List.of(Class.forName(item, true, parent));
        } catch (ClassNotFoundException e) {
            throw new OperatorException(what + " not found: '" + item + "' is neither a .java file, a .jar file,"
                    + " nor a class on the classpath");
        } catch (LinkageError e) {
            throw new OperatorException("cannot load class " + item + ": " + e, e);
        }
    }

    private static Path existing(String item, String what) {
        Path path = Path.of(item);
        if (!Files.isRegularFile(path)) {
            throw new OperatorException(what + " file not found: " + item);
        }
        return path;
    }

    private static List<Class<?>> fromJar(Path jar, ClassLoader parent) {
        List<String> names = new ArrayList<>();
        try (JarFile file = new JarFile(jar.toFile())) {
            for (JarEntry entry : Collections.list(file.entries())) {
                String name = entry.getName();
                if (name.endsWith(".class") && !name.endsWith("module-info.class") && !name.startsWith("META-INF/")) {
                    names.add(name.substring(0, name.length() - ".class".length()).replace('/', '.'));
                }
            }
        } catch (IOException e) {
            throw new OperatorException("cannot read jar " + jar + ": " + e.getMessage(), e);
        }
        return loadable(names, new URLClassLoader(new URL[]{toUrl(jar)}, parent));
    }

    /** The classes that load; a class whose dependencies are missing cannot hold handlers we could call anyway. */
    private static List<Class<?>> loadable(List<String> names, ClassLoader loader) {
        List<Class<?>> classes = new ArrayList<>();
        for (String name : names) {
            try {
                classes.add(Class.forName(name, false, loader));
            } catch (ClassNotFoundException | LinkageError e) {
                // skipped: see above
            }
        }
        return classes;
    }

    /** The URL of a jar or a resource file, for class loaders. */
    static URL toUrl(Path file) {
        try {
            return file.toUri().toURL();
        } catch (MalformedURLException e) {
            throw new OperatorException("invalid file path " + file, e);
        }
    }
}
