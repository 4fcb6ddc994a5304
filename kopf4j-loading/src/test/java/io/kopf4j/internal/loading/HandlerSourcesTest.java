package io.kopf4j.internal.loading;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kopf4j.OperatorException;
import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class HandlerSourcesTest {
    @TempDir
    Path dir;

    @Test
    void compilesASourceFileInMemoryKeepingParameterNames() throws Exception {
        Path source = Files.writeString(dir.resolve("Handlers.java"), """
                import io.kopf4j.On;
                public class Handlers {
                    @On.Create("kopfexamples")
                    public String create(String name) { return name; }
                    static class Helper {}
                }
                """);
        List<Class<?>> classes = HandlerSources.load(List.of(source.toString()), List.of());
        assertThat(classes).extracting(Class::getName).containsExactly("Handlers");
        assertThat(classes.get(0).getMethod("create", String.class).getParameters()[0].getName()).isEqualTo("name");
    }

    /** As in a Maven project, whose target/classes on the classpath has the last build's copy of the edited class. */
    @Test
    void aSourceIsTheTruthForItsClassThoughTheClasspathHasAnOlderBuildOfIt() throws Exception {
        Path source = Files.writeString(dir.resolve("FirstHandlers.java"), """
                package io.kopf4j.internal.loading.module;
                import io.kopf4j.On;
                public class FirstHandlers {
                    @On.Create("kopfexamples")
                    public void edited() {
                    }
                }
                """);
        Class<?> loaded = HandlerSources.load(List.of(source.toString()), List.of()).getFirst();
        assertThat(loaded.getDeclaredMethods()).extracting(Method::getName).containsExactly("edited");
    }

    @Test
    void loadsEveryHandlerClassOfAJar() throws Exception {
        Path source = Files.writeString(dir.resolve("Packed.java"), """
                package com.example;
                public class Packed {
                    @io.kopf4j.On.Create("kopfexamples")
                    public void create() {}
                }
                """);
        Path jar = dir.resolve("handlers.jar");
        try (var out = new java.util.jar.JarOutputStream(Files.newOutputStream(jar))) {
            out.putNextEntry(new java.util.jar.JarEntry("com/example/Packed.class"));
            out.write(compileToBytes(source));
            out.putNextEntry(new java.util.jar.JarEntry("com/example/Unrelated.class"));
            out.write(new byte[]{0});
        }
        assertThat(HandlerSources.load(List.of(jar.toString()), List.of())).extracting(Class::getName).containsExactly("com.example.Packed");
    }

    @Test
    void loadsAClassByNameFromTheClasspath() {
        assertThat(HandlerSources.load(List.of("io.kopf4j.internal.loading.module.FirstHandlers"), List.of()))
                .extracting(Class::getSimpleName).containsExactly("FirstHandlers");
    }

    @Test
    void aModuleIsAClassOrEveryHandlerClassOfAPackage() {
        assertThat(HandlerSources.load(List.of(), List.of("io.kopf4j.internal.loading.module")))
                .extracting(Class::getSimpleName).containsExactlyInAnyOrder("FirstHandlers", "SecondHandlers");
        assertThat(HandlerSources.load(List.of(), List.of("io.kopf4j.internal.loading.module.SecondHandlers")))
                .extracting(Class::getSimpleName).containsExactly("SecondHandlers");
        assertThatThrownBy(() -> HandlerSources.load(List.of(), List.of("io.kopf4j.nowhere")))
                .isInstanceOf(OperatorException.class)
                .hasMessage("module not found: 'io.kopf4j.nowhere' is neither a class nor a package on the classpath"
                        + " (add jars and folders to $CLASSPATH)");
        assertThatThrownBy(() -> HandlerSources.load(List.of(), List.of("io.kopf4j.internal.loading.module.Helper")))
                .hasMessage("no kopf4j handlers in module io.kopf4j.internal.loading.module.Helper: no method is annotated with @On.*");
        assertThatThrownBy(() -> HandlerSources.load(List.of(), List.of("com/example")))
                .hasMessage("invalid module 'com/example': expected a class or package name, e.g. com.example.operator");
        assertThatThrownBy(() -> HandlerSources.load(List.of(), List.of("handlers.py")))
                .hasMessage("module not found: 'handlers.py' is neither a class nor a package on the classpath"
                        + " (add jars and folders to $CLASSPATH)");
    }

    private byte[] compileToBytes(Path source) throws Exception {
        Path out = Files.createDirectories(dir.resolve("classes"));
        int code = javax.tools.ToolProvider.getSystemJavaCompiler().run(null, null, null,
                "-classpath", System.getProperty("java.class.path") + java.io.File.pathSeparator + Classpath.effective(),
                "-d", out.toString(), source.toString());
        assertThat(code).isZero();
        return Files.readAllBytes(out.resolve("com/example/Packed.class"));
    }

    @Test
    void missingFileIsNamed() {
        assertThatThrownBy(() -> HandlerSources.load(List.of("nope/Missing.java"), List.of()))
                .isInstanceOf(OperatorException.class)
                .hasMessage("handlers file not found: nope/Missing.java");
    }

    @Test
    void compileErrorsReadAsJavacPrintsThemWithTheLineTheCaretAndTheSymbol() throws Exception {
        Path source = Files.writeString(dir.resolve("Broken.java"), """
                public class Broken {
                    void f() { undefined(); }
                }
                """);
        assertThatThrownBy(() -> HandlerSources.load(List.of(source.toString()), List.of()))
                .isInstanceOf(OperatorException.class)
                .hasMessage(source + ":2: error: cannot find symbol\n"
                        + "    void f() { undefined(); }\n"
                        + "               ^\n"
                        + "  symbol:   method undefined()\n"
                        + "  location: class Broken\n"
                        + "1 error");
    }

    @Test
    void unknownClassNameIsNamed() {
        assertThatThrownBy(() -> HandlerSources.load(List.of("com.example.Nothing"), List.of()))
                .hasMessage("handlers not found: 'com.example.Nothing' is neither a .java file, a .jar file, nor a class on the classpath");
    }

    @Test
    void aSourceWithoutHandlersIsAnError() throws Exception {
        Path source = Files.writeString(dir.resolve("Plain.java"), "public class Plain {}\n");
        assertThatThrownBy(() -> HandlerSources.load(List.of(source.toString()), List.of()))
                .hasMessage("no kopf4j handlers in " + source + ": no method is annotated with @On.*");
    }
}
