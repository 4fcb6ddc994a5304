package io.kopf4j.internal.loading;

import static org.assertj.core.api.Assertions.assertThat;

import io.kopf4j.On;
import io.kopf4j.OperatorSettings;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * {@link OperatorPlan#with}: the plan of the same operator with other namespaces, leader election and
 * secure metrics is the one a run with those options makes, its startup handlers having the last word.
 */
class OperatorPlanChoicesTest {
    /** Configures the settings as Kopf does: these hold whatever the options chose. */
    public static class Configured {
        @On.Startup
        public void configure(OperatorSettings settings) {
            settings.posting.enabled = false;
            settings.metrics.secure = false;
        }

        @On.Create("kopfexamples")
        public void create() {
        }
    }

    private static OperatorPlan plan(String... args) {
        RunOptions options = new RunOptions();
        new CommandLine(options).parseArgs(args);
        return options.plan();
    }

    @Test
    void anotherChoiceMakesTheSettingsOfTheRunWithItAndLeavesTheGivenPlanAlone() {
        OperatorPlan given = plan("-n", "team-a", "--standalone", Configured.class.getName());
        assertThat(given.choices()).isEqualTo(new OperatorPlan.Choices(List.of("team-a"), false, false));

        OperatorPlan everywhere = given.with(new OperatorPlan.Choices(List.of(), true, true));

        assertThat(everywhere.namespaces()).isEmpty();
        assertThat(everywhere.settings().peering.clusterwide).isTrue();   // as Kopf's CLI sets it without -n
        assertThat(everywhere.settings().leadership.enabled).isTrue();
        assertThat(everywhere.settings().peering.standalone).isTrue();   // the other options stay
        assertThat(everywhere.settings().posting.enabled).isFalse();     // the startup handler ran on the new settings
        assertThat(everywhere.settings().metrics.secure).isFalse();      // and overrode the choice, as in a run
        assertThat(given.namespaces()).containsExactly("team-a");
        assertThat(given.settings().peering.clusterwide).isFalse();
        assertThat(given.settings().leadership.enabled).isFalse();
    }
}
