package io.kopf4j.internal.loading;

import io.kopf4j.OperatorException;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.StringWriter;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
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
 * imports a file: nothing is written to disk. Compile errors read as javac prints them (the file
 * and line, the source line with its caret, the symbol and its location): the first line alone, such
 * as {@code cannot find symbol}, does not say which.
 *
 * <p>The only class of kopf4j that names {@code javax.tools}: {@link SourceClasses} reaches it only
 * when the {@link ClassCache} has no classes for the sources, so that a start with unchanged sources
 * never loads the compiler (seconds of CPU, tens of MB).
 *
 * <pre>{@code
 * Map<String, byte[]> classes = SourceCompiler.compile(List.of(Path.of("Handlers.java")),
 *         List.of("-parameters", "-classpath", Classpath.effective()));
 * byte[] handlers = classes.get("Handlers");
 * }</pre>
 */
final class SourceCompiler {
    private SourceCompiler() {
    }

    /** The class files of these sources, by binary class name ({@code com.example.Handlers$Helper}). */
    static Map<String, byte[]> compile(List<Path> sources, List<String> options) {
        JavaCompiler compiler = ToolProvider.getSystemJavaCompiler();
        if (compiler == null) {
            throw new OperatorException("cannot compile " + sources + ": this Java runtime has no compiler; run kopf4j with a JDK");
        }
        // Without a diagnostic listener, javac writes its diagnostics here, formatted as on the command line.
        StringWriter javacOutput = new StringWriter();
        Map<String, ByteArrayOutputStream> classes = new HashMap<>();
        try (StandardJavaFileManager standard = compiler.getStandardFileManager(null, Locale.ROOT, StandardCharsets.UTF_8);
             InMemoryOutput output = new InMemoryOutput(standard, classes)) {
            JavaCompiler.CompilationTask task = compiler.getTask(javacOutput, output, null, options, null,
                    standard.getJavaFileObjectsFromPaths(sources));
            task.setLocale(Locale.ROOT);
            if (!task.call()) {
                throw new OperatorException(javacOutput.toString().stripTrailing());
            }
        } catch (IOException e) {
            throw new OperatorException("cannot compile " + sources + ": " + e.getMessage(), e);
        }
        Map<String, byte[]> compiled = new HashMap<>();
        classes.forEach((name, bytes) -> compiled.put(name, bytes.toByteArray()));
        return compiled;
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
}
