package io.kopf4j.internal.loading;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kopf4j.OperatorException;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** The sharding options of {@code kopf4j run}: bad values get one line naming the option. */
class RunOptionsShardingTest {
    private static RunOptions parse(String... args) {
        RunOptions options = new RunOptions();
        new CommandLine(options).parseArgs(args);
        return options;
    }

    @Test
    void shardsIsAutoOrACount() {
        for (String bad : new String[] {"0", "-1", "many", "1.5"}) {
            assertThatThrownBy(() -> parse("--shards", bad, "Handlers").operatorBuilder())
                    .isInstanceOf(OperatorException.class)
                    .hasMessage("invalid --shards '" + bad + "': expected auto or a count of at least 1");
        }
    }

    @Test
    void theShardOptionsNeedShards() {
        assertThatThrownBy(() -> parse("--shard-group", "g", "Handlers").operatorBuilder())
                .isInstanceOf(OperatorException.class)
                .hasMessage("--shard-group, --shard-namespace and --shard-identity need --shards");
    }
}
