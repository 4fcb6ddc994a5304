package io.kopf4j.internal.pki;

import io.kopf4j.internal.structs.Sha256;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Re-reads files every interval and reports when their content changes (Kopf's
 * {@code __sleep_forever_or_until_ssl_files_change}). Polling, as Kopf does: mounted Secrets are
 * swapped through symlinks and send no file events that a watch service would reliably see. Only a
 * digest of the content is kept, never the secrets themselves.
 *
 * <pre>{@code
 * FileWatch watch = FileWatch.start(List.of(certfile, pkeyfile), Duration.ofSeconds(60), () -> reload());
 * watch.close();
 * }</pre>
 */
public final class FileWatch implements AutoCloseable {
    private static final Logger LOGGER = LoggerFactory.getLogger(FileWatch.class);

    private final List<Path> files;
    private final Duration interval;
    private final BooleanSupplier onChange;
    private final CountDownLatch closed = new CountDownLatch(1);
    private final Thread thread;
    private byte[] digest;

    /**
     * @param onChange called on the watch's thread after a change; returns whether the change is
     *                 taken (else, e.g. for a half-written pair of files, it is reported again on
     *                 the next check)
     */
    private FileWatch(List<Path> files, Duration interval, BooleanSupplier onChange) throws IOException {
        this.files = List.copyOf(files);
        this.interval = interval;
        this.onChange = onChange;
        this.digest = digest();
        this.thread = Thread.ofVirtual().name("kopf4j-file-watch").start(this::run);
    }

    /**
     * Starts checking the files every interval.
     *
     * @param files the files, read together: a change of any is a change
     * @param interval how often they are read
     * @param onChange called on the watch's thread after a change; returns whether the change is taken
     * @return the running watch, which {@link #close()} stops
     * @throws IOException if the files cannot be read now
     */
    public static FileWatch start(List<Path> files, Duration interval, BooleanSupplier onChange) throws IOException {
        return new FileWatch(files, interval, onChange);
    }

    private void run() {
        try {
            while (!closed.await(interval.toNanos(), TimeUnit.NANOSECONDS)) {
                check();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void check() {
        byte[] current;
        try {
            current = digest();
        } catch (IOException e) {
            LOGGER.warn("Cannot read the SSL certificate files: {}", e.toString());
            return;
        }
        if (!Arrays.equals(current, digest) && onChange.getAsBoolean()) {
            digest = current;
        }
    }

    private byte[] digest() throws IOException {
        MessageDigest hasher = Sha256.digest();
        for (Path file : files) {
            hasher.update(Files.readAllBytes(file));
        }
        return hasher.digest();
    }

    @Override
    public void close() {
        closed.countDown();
        thread.interrupt();
    }
}
