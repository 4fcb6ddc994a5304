package io.kopf4j.bench;

import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * One operator's run on a fresh cluster: its start-up (from its process's spawn until it has
 * handled a first object), its requests at start-up, its RSS when idle after start-up, its idle RSS
 * after the create phase (and what that grew by per object since start-up), its RSS at rest after
 * the delete phase, and the three phases.
 *
 * <pre>{@code
 * RunResult result = new OperatorRun(root, OperatorKind.FLOOR, 1000).run();
 * double createSeconds = result.phases().get(Phase.CREATE).seconds();
 * }</pre>
 */
record RunResult(OperatorKind operator, double startupSeconds, ApiRequests startupRequests, double startupSettleSeconds,
                 double startupRssMiB, double idleRssMiB, double idleKiBPerObject, double restRssMiB,
                 Map<Phase, PhaseResult> phases) {

    /** Each figure's median over several runs of the same operator. */
    static RunResult median(List<RunResult> runs) {
        Map<Phase, PhaseResult> phases = new EnumMap<>(Phase.class);
        for (Phase phase : Phase.values()) {
            phases.put(phase, PhaseResult.median(runs.stream().map(run -> run.phases().get(phase)).toList()));
        }
        return new RunResult(runs.getFirst().operator(), Median.of(runs, RunResult::startupSeconds),
                Median.ofRequests(runs.stream().map(RunResult::startupRequests).toList()),
                Median.of(runs, RunResult::startupSettleSeconds), Median.of(runs, RunResult::startupRssMiB),
                Median.of(runs, RunResult::idleRssMiB), Median.of(runs, RunResult::idleKiBPerObject),
                Median.of(runs, RunResult::restRssMiB), phases);
    }
}
