package io.kopf4j.internal.engines.activities;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kopf4j.ConnectionInfo;
import io.kopf4j.ErrorsMode;
import io.kopf4j.LoginError;
import io.kopf4j.Memo;
import io.kopf4j.OperatorException;
import io.kopf4j.OperatorSettings;
import io.kopf4j.internal.clients.Vault;
import io.kopf4j.internal.intents.ActivityHandler;
import io.kopf4j.internal.runtime.OperatorThreads;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

/** The authenticator once the credentials have run out for good. */
class AuthenticatorTest {
    @Test
    void aRequestRejectedAfterTheCredentialsRanOutFailsAtOnceInsteadOfWaitingForALogin() throws Exception {
        AtomicInteger logins = new AtomicInteger();
        ActivityHandler once = new ActivityHandler(ActivityHandler.AUTHENTICATION, "once", ErrorsMode.IGNORED, null, null,
                null, null, activity -> logins.incrementAndGet() == 1
                        ? ConnectionInfo.builder("https://127.0.0.1:6443").token("t").build() : null, "'once'");
        Authenticator authenticator = new Authenticator(List.of(once), new OperatorSettings(), new Memo());
        AtomicReference<OperatorException> lost = new AtomicReference<>();
        OperatorThreads threads = new OperatorThreads("test");
        authenticator.start(threads, lost::set);
        Vault vault = authenticator.vault();
        Vault.Item item = vault.select();   // two requests got the credential before it was revoked

        assertThatThrownBy(() -> vault.invalidate(item)).isInstanceOf(LoginError.class);   // the first 401: a re-login, nothing
        Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> lost.get() != null);

        // The second 401, e.g. of the peering's last PATCH during the stop: no one logs in any more.
        Thread late = Thread.ofVirtual().start(() -> assertThatThrownBy(() -> vault.invalidate(item))
                .isInstanceOf(LoginError.class));
        assertThat(late.join(Duration.ofSeconds(5))).as("failed at once, not waiting for credentials").isTrue();
        authenticator.close();
    }
}
