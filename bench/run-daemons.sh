#!/usr/bin/env bash
# The daemon benchmark: bench/run-daemons.sh [N]  (default: 10000). Prints a markdown table.
# kopf4j with one sync daemon per object (bench/BenchDaemons.java, posting of logger lines off) on
# a fresh LocalCluster: the time until N daemons run, the idle RSS, OS threads and CPU, then the
# deletion of the N objects (seconds, per-object latency, PATCHes per object). See bench/README.md.
# KOPF4J_BENCH_JVM_OPTS="-Xmx256m"   the kopf4j operator JVM's options.
# MAVEN_OPTS_BENCH="-o"              extra options of the build's mvn calls.
source "$(dirname "$(readlink -f "$0")")/../scripts/usage.sh" "$@"
set -euo pipefail
exec "$(dirname "$(readlink -f "$0")")/launch.sh" DaemonBenchmark "${1:-10000}"
