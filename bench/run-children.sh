#!/usr/bin/env bash
# The children benchmark: bench/run-children.sh [N]  (default: 1000). Prints a markdown table.
# kopf4j with a @Children handler of 3 children per object (bench/BenchChildren.java) on a fresh
# LocalCluster without controllers (the benchmark plays the Deployments' status): the time until
# every child is applied and every parent Ready, as a multiple of the benchmark applying the same
# children itself; the API writes per parent, and at rest; RSS per cached child; the drift repair's
# p50/p99 over 100 hand edits. See bench/README.md.
# MAVEN_OPTS_BENCH="-o"              extra options of the build's mvn calls.
source "$(dirname "$(readlink -f "$0")")/../scripts/usage.sh" "$@"
set -euo pipefail
exec "$(dirname "$(readlink -f "$0")")/launch.sh" ChildrenBenchmark "${1:-1000}"
