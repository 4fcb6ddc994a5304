package io.kopf4j.internal.loading;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The classes of handler source files: read from the {@link ClassCache} when the sources, the
 * classpath and the Java runtime are those of an earlier start, otherwise compiled by the
 * {@link SourceCompiler} and cached. Compile errors are not cached: they show again at every start.
 *
 * <p>Nothing here names the compiler's types, and the compile options live here rather than in
 * {@link SourceCompiler} (they are part of the key): a start served by the cache never loads that
 * class, nor {@code javax.tools} and javac behind it.
 *
 * <pre>{@code
 * List<Class<?>> classes = SourceClasses.load(List.of(Path.of("Handlers.java")), parent);
 * }</pre>
 */
final class SourceClasses {
    private static final Logger LOG = LoggerFactory.getLogger(SourceClasses.class);
    /** Whether this process has run the compiler: see {@link HandlerSources#compiledInThisProcess()}. */
    private static volatile boolean compiled;

    private SourceClasses() {
    }

    /** {@return whether this process has compiled handler sources} */
    static boolean compiledInThisProcess() {
        return compiled;
    }

    /** The classes of these sources, in a loader below {@code parent}, from the configured cache. */
    static List<Class<?>> load(List<Path> sources, ClassLoader parent) {
        return load(sources, parent, ClassCache.configured());
    }

    static List<Class<?>> load(List<Path> sources, ClassLoader parent, ClassCache cache) {
        String classpath = Classpath.effective();
        // Parameter names are kept so that handlers can declare `String name`.
        List<String> options = List.of("-parameters", "-proc:none", "-encoding", "UTF-8", "-classpath", classpath);
        String key;
        try {
            key = CompilationKey.of(sources, options, classpath);
        } catch (IOException e) {
            LOG.debug("Compiled handler classes not cached: cannot read {} ({})", sources, e.toString());
            compiled = true;
            return new MemoryClassLoader(parent, SourceCompiler.compile(sources, options), ResourceDirectories.of(sources)).loadAll();
        }
        Map<String, byte[]> classes = cache.read(key).orElseGet(() -> {
            compiled = true;
            Map<String, byte[]> fresh = SourceCompiler.compile(sources, options);
            cache.write(key, fresh);
            return fresh;
        });
        return new MemoryClassLoader(parent, classes, ResourceDirectories.of(sources)).loadAll();
    }
}
