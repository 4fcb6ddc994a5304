#!/usr/bin/env bash
# The timer benchmark: bench/run-timers.sh [N]  (default: 1000). Prints a markdown table.
# kopf4j with a 1-s timer per object (bench/BenchTimers.java, posting of logger lines on) on a
# fresh LocalCluster: each run's lag over a 30-s window (p50/p90/p99/max), runs/s, the operator's CPU
# cores and RSS, beside Kopf 1.44.6's figures; the Events' writes over a minute once each object's
# Event is posted (the API server's count) and the operator's warnings. See bench/README.md.
# KOPF4J_BENCH_POSTING=off           posting of logger lines off (bench/BenchHandlersQuiet.java).
# KOPF4J_BENCH_JVM_OPTS="-Xmx256m"   the kopf4j operator JVM's options.
# MAVEN_OPTS_BENCH="-o"              extra options of the build's mvn calls.
source "$(dirname "$(readlink -f "$0")")/../scripts/usage.sh" "$@"
set -euo pipefail
exec "$(dirname "$(readlink -f "$0")")/launch.sh" TimerBenchmark "${1:-1000}"
