package io.kopf4j.cli;

import io.kopf4j.internal.loading.HandlerSources;
import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Tells the launcher that this run's recording of the classes it loads is worth an AOT cache: a run
 * recorded by {@code scripts/aot-options.sh} gets the recording's path in the system property
 * {@value #PROPERTY}, and once its operator serves, a file beside it ({@code PATH.served}) says so.
 * The launcher makes a cache only of a recording so marked: a first run that failed (a typo in the
 * handlers, no cluster) recorded a fraction of an operator's classes, and its
 * cache would have slowed every later start by ~1 s for as long as the jars stayed the same. Nor is a
 * run that compiled its handlers marked (a first run, or one after the sources changed): it loaded
 * the JDK's compiler, ~11 MB of the cache's 69, which every later start, reading the compiled classes
 * from the class cache, would load from the AOT cache for nothing (more RSS, a slower start). The next
 * run, from the class cache, records again.
 *
 * <pre>{@code
 * operator.start();        // serves
 * AotRecording.served();   // nothing unless the launcher records this run
 * }</pre>
 */
final class AotRecording {
    /** The system property with the path of this run's recording ({@code -XX:AOTConfiguration=}). */
    static final String PROPERTY = "kopf4j.aot.recording";
    private static final Logger LOG = LoggerFactory.getLogger(AotRecording.class);

    private AotRecording() {
    }

    /** Marks this run's recording, if the launcher records it and the run compiled no handlers, as one of an operator that served. */
    static void served() {
        String recording = System.getProperty(PROPERTY);
        if (recording == null || HandlerSources.compiledInThisProcess()) {
            return;
        }
        Path marker = Path.of(recording + ".served");
        try {
            Files.createFile(marker);
        } catch (FileAlreadyExistsException alreadyMarked) {
            // A reload's operator served again: one mark is enough.
        } catch (IOException e) {
            // Without the mark the next start makes no cache of this run and a later run records again.
            LOG.debug("Cannot mark the recording of the loaded classes at {}: {}", marker, e.toString());
        }
    }
}
