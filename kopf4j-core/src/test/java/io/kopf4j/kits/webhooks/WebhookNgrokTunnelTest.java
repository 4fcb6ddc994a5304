package io.kopf4j.kits.webhooks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.kopf4j.WebhookClientConfig;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** The ngrok agent cannot be reached from here: a stand-in script prints what the agent prints. */
class WebhookNgrokTunnelTest {
    @RegisterExtension
    final StartedServers servers = new StartedServers();
    @TempDir
    Path dir;

    /** A stand-in agent: records its arguments, pid and token; prints the given lines; then runs until stopped, or exits. */
    private Path standIn(String output, boolean stays) throws IOException {
        Path script = dir.resolve("ngrok");
        Files.writeString(script, """
                #!/bin/sh
                echo "$@" > "%1$s/args"
                echo "$NGROK_AUTHTOKEN" > "%1$s/token"
                echo $$ > "%1$s/pid"
                cat <<'OUTPUT'
                %2$s
                OUTPUT
                %3$s
                """.formatted(dir, output, stays ? "exec sleep 600" : "exit 1"));
        Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwx------"));
        return script;
    }

    private static boolean ended(long pid) {
        return ProcessHandle.of(pid).map(process -> !process.isAlive()).orElse(true);
    }

    private static final String STARTED = """
            t=2026-11-23T17:00:00+0000 lvl=info msg="no configuration paths supplied"
            {"lvl":"info","msg":"starting web service","obj":"web","addr":"127.0.0.1:4040","t":"2026-11-23T17:00:00Z"}
            {"lvl":"info","msg":"client session established","obj":"tunnels.session","t":"2026-11-23T17:00:01Z"}
            {"addr":"http://localhost:9443","lvl":"info","msg":"started tunnel","name":"command_line","obj":"tunnels","t":"2026-11-23T17:00:01Z","url":"https://e5fc05f6494b.ngrok-free.app"}""";

    @Test
    void publishesTheTunnelsUrlAndServesTheRequestsItForwards() throws Exception {
        WebhookNgrokTunnel tunnel = new WebhookNgrokTunnel().addr("127.0.0.1").path("/xyz").token("s3cr3t").region("eu")
                .binary(standIn(STARTED, true));

        WebhookClientConfig config = servers.start(tunnel);

        assertThat(config).isEqualTo(WebhookClientConfig.url("https://e5fc05f6494b.ngrok-free.app/xyz", null));
        assertThat(tunnel.ready()).isTrue();
        List<String> args = List.of(Files.readString(dir.resolve("args")).strip().split(" "));
        assertThat(args).startsWith("http").containsSequence("--log", "stdout", "--log-format", "json").containsSequence("--region", "eu");
        assertThat(Files.readString(dir.resolve("token")).strip()).isEqualTo("s3cr3t");
        String upstream = args.get(1);
        assertThat(upstream).startsWith("127.0.0.1:");
        // What ngrok forwards: plain HTTP to the local server, under the same path.
        assertThat(WebhookClients.post(WebhookClients.plain(), "http://" + upstream + "/xyz/validate", "{}").statusCode()).isEqualTo(200);
        assertThat(servers.requests).singleElement().extracting(request -> request.webhook()).isEqualTo("validate");

        long pid = Long.parseLong(Files.readString(dir.resolve("pid")).strip());
        tunnel.close();
        assertThat(tunnel.ready()).isFalse();
        await().atMost(Duration.ofSeconds(10)).until(() -> ended(pid));
        assertThatThrownBy(() -> WebhookClients.post(WebhookClients.plain(), "http://" + upstream + "/xyz/validate", "{}"))
                .isInstanceOf(IOException.class);
    }

    @Test
    void aMissingAgentIsOneClearError() {
        WebhookNgrokTunnel tunnel = new WebhookNgrokTunnel().binary(dir.resolve("no-such-ngrok"));

        assertThatThrownBy(() -> servers.start(tunnel)).isInstanceOf(IOException.class)
                .hasMessage("The ngrok agent is not executable at " + dir.resolve("no-such-ngrok")
                        + " (set by WebhookNgrokTunnel.binary); install it from https://ngrok.com/download.");
        assertThat(tunnel.ready()).isFalse();
    }

    @Test
    void theAgentIsLookedUpOnThePath() throws Exception {
        Path agent = standIn("", false);

        assertThat(NgrokAgent.locate(null, "/nonexistent:" + dir)).isEqualTo(agent);
        assertThatThrownBy(() -> NgrokAgent.locate(null, "/nonexistent:/also-not")).isInstanceOf(IOException.class)
                .hasMessageContaining("not found in PATH").hasMessageContaining("WebhookNgrokTunnel.binary");
    }

    @Test
    void theAgentsFailureIsReportedAndTheLocalServerClosed() throws Exception {
        Path agent = standIn("""
                {"err":"authentication failed: Usage of ngrok requires a verified account and authtoken.","lvl":"eror","msg":"failed to reconnect session","obj":"tunnels.session","t":"2026-11-23T17:00:01Z"}
                ERROR:  authentication failed: Usage of ngrok requires a verified account and authtoken.""", false);
        WebhookNgrokTunnel tunnel = new WebhookNgrokTunnel().addr("127.0.0.1").binary(agent);

        assertThatThrownBy(() -> servers.start(tunnel)).isInstanceOf(IOException.class)
                .hasMessage("The ngrok agent exited (code 1) before opening a tunnel: "
                        + "authentication failed: Usage of ngrok requires a verified account and authtoken.");
        String upstream = Files.readString(dir.resolve("args")).strip().split(" ")[1];
        assertThatThrownBy(() -> WebhookClients.post(WebhookClients.plain(), "http://" + upstream + "/hook", "{}"))
                .isInstanceOf(IOException.class);
        assertThat(tunnel.ready()).isFalse();
    }

    @Test
    void anAgentThatOpensNoTunnelInTimeIsStopped() throws Exception {
        WebhookNgrokTunnel tunnel = new WebhookNgrokTunnel().addr("127.0.0.1").binary(standIn("", true))
                .startupTimeout(Duration.ofMillis(300));

        assertThatThrownBy(() -> servers.start(tunnel)).isInstanceOf(IOException.class)
                .hasMessageStartingWith("The ngrok agent opened no tunnel in PT0.3S");
        long pid = Long.parseLong(Files.readString(dir.resolve("pid")).strip());
        await().atMost(Duration.ofSeconds(10)).until(() -> ended(pid));
    }
}
