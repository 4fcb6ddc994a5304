package io.kopf4j.loading;

import io.kopf4j.OperatorException;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.StringWriter;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import javax.tools.FileObject;
import javax.tools.ForwardingJavaFileManager;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.SimpleJavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;

/**
 * Compiles handler sources in memory with the JDK's compiler, as {@code kopf run handlers.py}
 * imports a file: nothing is written to disk. Parameter names are kept ({@code -parameters}) so
 * that handlers can declare {@code String name}. Compile errors read as javac prints them (the file
 * and line, the source line with its caret, the symbol and its location): the first line alone, such
 * as {@code cannot find symbol}, does not say which.
 */
final class SourceCompiler {
    private SourceCompiler() {
    }

    /** Compiles the files and loads every class they declare, in a loader below {@code parent}. */
    static List<Class<?>> compile(List<Path> sources, ClassLoader parent) {
        JavaCompiler compiler = ToolProvider.getSystemJavaCompiler();
        if (compiler == null) {
            throw new OperatorException("cannot compile " + sources + ": this Java runtime has no compiler; run kopf4j with a JDK");
        }
        // Without a diagnostic listener, javac writes its diagnostics here, formatted as on the command line.
        StringWriter javacOutput = new StringWriter();
        Map<String, ByteArrayOutputStream> classes = new HashMap<>();
        try (StandardJavaFileManager standard = compiler.getStandardFileManager(null, Locale.ROOT, StandardCharsets.UTF_8);
             InMemoryOutput output = new InMemoryOutput(standard, classes)) {
            List<String> options = List.of("-parameters", "-proc:none", "-encoding", "UTF-8",
                    "-classpath", Classpath.effective());
            JavaCompiler.CompilationTask task = compiler.getTask(javacOutput, output, null, options, null,
                    standard.getJavaFileObjectsFromPaths(sources));
            task.setLocale(Locale.ROOT);
            if (!task.call()) {
                throw new OperatorException(javacOutput.toString().stripTrailing());
            }
        } catch (IOException e) {
            throw new OperatorException("cannot compile " + sources + ": " + e.getMessage(), e);
        }
        MemoryClassLoader loader = new MemoryClassLoader(parent, classes);
        List<Class<?>> loaded = new ArrayList<>();
        for (String name : classes.keySet().stream().sorted().toList()) {
            try {
                loaded.add(loader.loadClass(name));
            } catch (ClassNotFoundException | LinkageError e) {
                throw new OperatorException("cannot load compiled class " + name + ": " + e, e);
            }
        }
        return loaded;
    }

    /** Collects the compiler's class files in memory. */
    private static final class InMemoryOutput extends ForwardingJavaFileManager<StandardJavaFileManager> {
        private final Map<String, ByteArrayOutputStream> classes;

        InMemoryOutput(StandardJavaFileManager manager, Map<String, ByteArrayOutputStream> classes) {
            super(manager);
            this.classes = classes;
        }

        @Override
        public JavaFileObject getJavaFileForOutput(Location location, String className, JavaFileObject.Kind kind,
                                                   FileObject sibling) {
            return new SimpleJavaFileObject(URI.create("mem:///" + className.replace('.', '/') + kind.extension), kind) {
                @Override
                public OutputStream openOutputStream() {
                    return classes.computeIfAbsent(className, k -> new ByteArrayOutputStream());
                }
            };
        }
    }

    /** Defines the compiled classes on demand. */
    private static final class MemoryClassLoader extends ClassLoader {
        private final Map<String, ByteArrayOutputStream> classes;

        MemoryClassLoader(ClassLoader parent, Map<String, ByteArrayOutputStream> classes) {
            super(parent);
            this.classes = classes;
        }

        @Override
        protected Class<?> findClass(String name) throws ClassNotFoundException {
            ByteArrayOutputStream bytes = classes.get(name);
            if (bytes == null) {
                throw new ClassNotFoundException(name);
            }
            byte[] code = bytes.toByteArray();
            return defineClass(name, code, 0, code.length);
        }
    }
}
