package io.kopf4j.internal.loading;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The point of the compiled-class cache: a start with unchanged sources loads no compiler. Each
 * start is a JVM of its own (the test's JVM has long loaded javac), which logs every class it
 * loads ({@code -Xlog:class+load}).
 */
class CompilerFreeStartTest {
    private static final Predicate<String> COMPILER =
            name -> name.startsWith("javax.tools.") || name.startsWith("com.sun.tools.javac.")
                    || name.equals(SourceCompiler.class.getName());

    @TempDir
    Path dir;

    @Test
    void aSecondStartWithUnchangedSourcesLoadsNoCompilerClass() throws Exception {
        // Two classes: the cache serves every class a source declares, the helper as well.
        Path source = Files.writeString(dir.resolve("Handlers.java"), """
                import io.kopf4j.On;
                public class Handlers {
                    @On.Create("kopfexamples") public String create(String name) { return Greeting.of(name); }
                    static final class Greeting { static String of(String name) { return "hello " + name; } }
                }
                """);

        assertThat(classesLoadedByAStart(source, "first")).as("the first start compiles")
                .contains("javax.tools.ToolProvider", "com.sun.tools.javac.api.JavacTool");
        List<String> second = classesLoadedByAStart(source, "second");
        assertThat(second).as("the second start reads the cache").contains(ClassCache.class.getName());
        assertThat(second).as("the compiler's classes loaded by the second start").filteredOn(COMPILER).isEmpty();
    }

    private List<String> classesLoadedByAStart(Path source, String start) throws IOException, InterruptedException {
        Path loaded = dir.resolve(start + "-classes.log");
        Path output = dir.resolve(start + "-output.log");
        ProcessBuilder builder = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xlog:class+load=info:file=" + loaded + ":none", "-cp", Classpath.effective(),
                Start.class.getName(), source.toString())
                .redirectErrorStream(true).redirectOutput(output.toFile());
        builder.environment().put(ClassCache.DIRECTORY_VARIABLE, dir.resolve("cache").toString());
        Process process = builder.start();
        try {
            assertThat(process.waitFor(60, SECONDS)).as("the %s start ends", start).isTrue();
        } finally {
            process.destroyForcibly();
        }
        assertThat(Files.readString(output)).as("the %s start's output", start)
                .endsWith("handlers: [Handlers], created: hello kopf\n");
        // Each line: the class's name, then " source: " and where it came from.
        return Files.readAllLines(loaded).stream().map(line -> line.split(" ", 2)[0]).toList();
    }

    /** One start of an operator, as far as loading its handlers, and one call of the handler. */
    static final class Start {
        public static void main(String[] args) throws ReflectiveOperationException {
            List<Class<?>> handlers = HandlerSources.load(List.of(args), List.of());
            Object created = handlers.getFirst().getMethod("create", String.class)
                    .invoke(handlers.getFirst().getConstructor().newInstance(), "kopf");
            System.out.println("handlers: " + handlers.stream().map(Class::getName).toList() + ", created: " + created);
        }
    }
}
