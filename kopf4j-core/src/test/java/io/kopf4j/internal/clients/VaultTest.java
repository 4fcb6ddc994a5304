package io.kopf4j.internal.clients;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kopf4j.ConnectionInfo;
import io.kopf4j.LoginError;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Kopf's vault rules: priorities, invalidation with memory, expiration, and waiting for a re-login. */
class VaultTest {
    private static ConnectionInfo token(String token, int priority) {
        return ConnectionInfo.builder("https://cluster").token(token).priority(priority).build();
    }

    @Test
    void theHighestPriorityWinsAndEqualOnesAreChosenAtRandom() {
        Vault vault = new Vault();
        vault.populate(Map.of("low", token("l", 0), "high-1", token("h1", 10), "high-2", token("h2", 10)));
        Set<String> chosen = new HashSet<>();
        for (int i = 0; i < 200; i++) {
            chosen.add(vault.select().info().token());
        }
        assertThat(chosen).containsExactlyInAnyOrder("h1", "h2");
    }

    @Test
    void anInvalidatedCredentialGivesWayToTheNextAndIsNotTakenBack() {
        Vault vault = new Vault();
        vault.populate(Map.of("a", token("bad", 10), "b", token("good", 0)));
        vault.invalidate(vault.select());
        assertThat(vault.select().info().token()).isEqualTo("good");

        vault.populate(Map.of("a", token("bad", 10)));
        assertThat(vault.select().info().token()).as("known to be invalid").isEqualTo("good");
        vault.populate(Map.of("a", token("renewed", 10)));
        assertThat(vault.select().info().token()).isEqualTo("renewed");
    }

    @Test
    void invalidatingTheLastCredentialWaitsForTheRelogin() throws Exception {
        Vault vault = new Vault();
        vault.populate(Map.of("login", token("old", 0)));
        Vault.Item old = vault.select();
        CompletableFuture<Boolean> authenticator = CompletableFuture.supplyAsync(() -> {
            try {
                boolean needed = vault.awaitEmptiness();
                vault.populate(Map.of("login", token("new", 0)));
                return needed;
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
        vault.invalidate(old);
        assertThat(authenticator.get(5, TimeUnit.SECONDS)).isTrue();
        assertThat(vault.select().info().token()).isEqualTo("new");
    }

    @Test
    void aReloginWithoutNewCredentialsRunsOut() throws Exception {
        Vault vault = new Vault();
        vault.populate(Map.of("login", token("only", 0)));
        Vault.Item only = vault.select();
        CompletableFuture.runAsync(() -> {
            try {
                vault.awaitEmptiness();
                vault.populate(Map.of("login", token("only", 0)));   // the same, rejected credential
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
        assertThatThrownBy(() -> vault.invalidate(only)).isInstanceOf(LoginError.class)
                .hasMessageStartingWith("Ran out of valid credentials.");
        assertThatThrownBy(vault::select).isInstanceOf(LoginError.class);
        assertThat(vault.select(info -> true)).isNull();
    }

    @Test
    void expiredCredentialsAreDroppedAndTriggerARelogin() throws Exception {
        Vault vault = new Vault();
        vault.populate(Map.of("short", token("expired", 0).toBuilder().expiration(Instant.now().minusSeconds(1)).build()));
        CompletableFuture.runAsync(() -> {
            try {
                vault.awaitEmptiness();
                vault.populate(Map.of("short", token("fresh", 0).toBuilder()
                        .expiration(Instant.now().plus(Duration.ofHours(1))).build()));
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
        assertThat(vault.select().info().token()).isEqualTo("fresh");
    }

    @Test
    void aFilterSelectsTheCredentialsOfOneConnection() {
        Vault vault = new Vault();
        ConnectionInfo other = ConnectionInfo.builder("https://elsewhere").token("x").priority(100).build();
        vault.populate(Map.of("here", token("mine", 0), "there", other));
        Connection here = Connection.of(token("any", 5));
        assertThat(vault.select(here::carries).info().token()).isEqualTo("mine");
        assertThat(vault.select().info()).isEqualTo(other);
    }

    @Test
    void closingReleasesTheWaiters() {
        Vault vault = new Vault();
        vault.populate(Map.of("login", token("t", 0)));
        Vault.Item item = vault.select();
        vault.close();
        assertThatThrownBy(() -> vault.invalidate(item)).isInstanceOf(LoginError.class)
                .hasMessage("the operator is stopping; no credentials are coming");
    }
}
