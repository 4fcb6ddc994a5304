package io.kopf4j.kits.webhooks;

import io.kopf4j.internal.structs.Json;
import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A locally installed ngrok agent that tunnels a public HTTPS URL to a local port: started as
 * {@code ngrok http <upstream> --log stdout --log-format json}, its public URL read from its
 * {@code "started tunnel"} log line. Kopf drives ngrok through pyngrok, which downloads the agent
 * and talks to its local API; reading the agent's own JSON log needs neither, and its failures
 * ({@code "err"} fields) come through the same stream. The auth token goes in the environment
 * ({@code NGROK_AUTHTOKEN}), not on the command line where other users could see it.
 *
 * <pre>{@code
 * try (NgrokAgent agent = NgrokAgent.start(NgrokAgent.locate(null, System.getenv("PATH")), "9443", null, null,
 *         Duration.ofSeconds(30))) {
 *     agent.publicUrl();   // "https://e5fc05f6494b.ngrok-free.app"
 * }
 * }</pre>
 */
final class NgrokAgent implements AutoCloseable {
    private static final Logger LOGGER = LoggerFactory.getLogger(NgrokAgent.class);
    private static final Duration STOP_GRACE = Duration.ofSeconds(5);

    private final Process process;
    private final CompletableFuture<String> url = new CompletableFuture<>();
    private volatile String lastError;
    private volatile boolean closing;

    private NgrokAgent(Process process) {
        this.process = process;
        Thread.ofVirtual().name("ngrok-log").start(this::readLog);
    }

    /**
     * The agent's executable: the given one, else {@code ngrok} on the {@code PATH}.
     *
     * @param binary the configured executable, or null
     * @param pathVariable the {@code PATH} to search, or null
     * @return the executable
     * @throws IOException in one line naming the setting, when there is none
     */
    public static Path locate(Path binary, String pathVariable) throws IOException {
        if (binary != null) {
            if (!Files.isExecutable(binary)) {
                throw new IOException("The ngrok agent is not executable at " + binary
                        + " (set by WebhookNgrokTunnel.binary); install it from https://ngrok.com/download.");
            }
            return binary;
        }
        for (String dir : (pathVariable == null ? "" : pathVariable).split(File.pathSeparator)) {
            Path candidate = dir.isEmpty() ? null : Path.of(dir, "ngrok");
            if (candidate != null && Files.isExecutable(candidate)) {
                return candidate;
            }
        }
        throw new IOException("The ngrok agent is not found in PATH: install it from https://ngrok.com/download,"
                + " or set its location with WebhookNgrokTunnel.binary(...).");
    }

    /**
     * Starts the agent and waits for its public URL.
     *
     * @param executable the agent's executable
     * @param upstream the local port, or {@code host:port}
     * @param token the ngrok auth token, or null for the agent's own configuration
     * @param region the ngrok region, or null for the agent's default
     * @param timeout how long to wait for the tunnel
     * @return the running agent
     * @throws IOException when it cannot start, fails, or opens no tunnel in time (it is stopped then)
     */
    public static NgrokAgent start(Path executable, String upstream, String token, String region, Duration timeout)
            throws IOException {
        List<String> command = new ArrayList<>(List.of(executable.toString(), "http", upstream,
                "--log", "stdout", "--log-format", "json"));
        if (region != null) {
            command.addAll(List.of("--region", region));
        }
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        if (token != null) {
            builder.environment().put("NGROK_AUTHTOKEN", token);
        }
        NgrokAgent agent = new NgrokAgent(builder.start());
        try {
            agent.url.get(timeout.toNanos(), TimeUnit.NANOSECONDS);
            return agent;
        } catch (ExecutionException e) {
            agent.close();
            throw new IOException(e.getCause().getMessage(), e.getCause());
        } catch (TimeoutException e) {
            agent.close();
            throw new IOException("The ngrok agent opened no tunnel in " + timeout
                    + (agent.lastError == null ? "" : "; its last error: " + agent.lastError));
        } catch (InterruptedException e) {
            agent.close();
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while waiting for the ngrok tunnel", e);
        }
    }

    /** {@return the tunnel's public URL} */
    public String publicUrl() {
        return url.getNow(null);
    }

    /** {@return whether the agent runs with its tunnel open} */
    public boolean alive() {
        return process.isAlive() && url.isDone() && !url.isCompletedExceptionally();
    }

    private void readLog() {
        try (BufferedReader lines = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line = lines.readLine(); line != null; line = lines.readLine()) {
                take(line);
            }
        } catch (IOException e) {
            LOGGER.debug("The ngrok agent's log ended: {}", e.toString());
        }
        int exit = waitFor();
        boolean beforeTheTunnel = url.completeExceptionally(new IOException("The ngrok agent exited (code " + exit
                + ") before opening a tunnel" + (lastError == null ? "." : ": " + lastError)));
        if (!beforeTheTunnel && !closing) {
            LOGGER.warn("The ngrok agent exited (code {}); the webhooks are not reachable at {} any more.", exit, publicUrl());
        }
    }

    private void take(String line) {
        Map<String, Object> entry;
        try {
            entry = Json.parseMap(line);
        } catch (IllegalArgumentException e) {
            LOGGER.debug("ngrok: {}", line);  // the plain "ERROR: ..." lines it prints when it gives up
            if (line.startsWith("ERROR:")) {
                lastError = line.substring("ERROR:".length()).strip();
            }
            return;
        }
        if (entry.get("err") instanceof String error && !"<nil>".equals(error)) {
            lastError = error;
            LOGGER.debug("ngrok: {}: {}", entry.get("msg"), error);
        }
        if ("started tunnel".equals(entry.get("msg")) && entry.get("url") instanceof String publicUrl) {
            url.complete(publicUrl);
        }
    }

    private int waitFor() {
        try {
            return process.waitFor();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return -1;
        }
    }

    /** Stops the agent: politely, then forcibly after a grace period. */
    @Override
    public void close() {
        closing = true;
        process.destroy();
        try {
            if (!process.waitFor(STOP_GRACE.toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroyForcibly();
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }
}
