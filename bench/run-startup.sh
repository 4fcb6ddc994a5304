#!/usr/bin/env bash
# The start-up benchmark: bench/run-startup.sh [N]  (default: 10000). Prints a markdown table.
# N objects are created on a fresh LocalCluster before kopf4j starts (bench/BenchHandlers.java,
# posting of logger lines off); it times the operator to ready, to every object handled and to idle,
# and checks that each object's create handler ran exactly once. See bench/README.md.
# KOPF4J_BENCH_JVM_OPTS="-Xmx256m"   the kopf4j operator JVM's options.
# MAVEN_OPTS_BENCH="-o"              extra options of the build's mvn calls.
source "$(dirname "$(readlink -f "$0")")/../scripts/usage.sh" "$@"
set -euo pipefail
exec "$(dirname "$(readlink -f "$0")")/launch.sh" StartupBenchmark "${1:-10000}"
