package io.kopf4j.bench;

import java.util.List;

/**
 * What one operator did in one phase: seconds until all N objects were handled, its API requests
 * per object (until it settled), the CPU seconds it used in the phase (and so far), its peak RSS so
 * far, and how long after the last object was handled it still made requests.
 *
 * <pre>{@code
 * PhaseResult result = new PhaseResult(12.3, perObject, 4.1, 9.8, 310.0, 1.5);
 * }</pre>
 */
record PhaseResult(double seconds, ApiRequests requestsPerObject, double cpuSeconds, double cumulativeCpuSeconds,
                   double peakRssMiB, double settleSeconds) {

    /** Each figure's median over several runs. */
    static PhaseResult median(List<PhaseResult> runs) {
        return new PhaseResult(Median.of(runs, PhaseResult::seconds),
                Median.ofRequests(runs.stream().map(PhaseResult::requestsPerObject).toList()),
                Median.of(runs, PhaseResult::cpuSeconds), Median.of(runs, PhaseResult::cumulativeCpuSeconds),
                Median.of(runs, PhaseResult::peakRssMiB), Median.of(runs, PhaseResult::settleSeconds));
    }
}
