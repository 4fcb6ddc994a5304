#!/usr/bin/env bash
# The load benchmark: bench/run.sh [N...]  (default: 200 1000). Prints markdown tables.
# For each N it runs the floor operator (no framework), kopf4j (bench/BenchHandlers.java) and
# kopf4j with posting of logger lines off, each on a fresh LocalCluster and as a separate process,
# so that their peak RSS and CPU time can be read from /proc. See bench/README.md.
# KOPF4J_BENCH_OPERATORS=floor,kopf4j,kopf4j-quiet   which operators run, in this order.
# KOPF4J_BENCH_REPEATS=3                             run them 3 times, interleaved; report medians.
# KOPF4J_BENCH_JVM_OPTS="-Xmx256m -XX:+UseSerialGC"  the kopf4j operator JVM's options.
# MAVEN_OPTS_BENCH="-o"                              extra options of the build's mvn calls.
source "$(dirname "$(readlink -f "$0")")/../scripts/usage.sh" "$@"
set -euo pipefail
sizes=("$@"); [[ ${#sizes[@]} -gt 0 ]] || sizes=(200 1000)
exec "$(dirname "$(readlink -f "$0")")/launch.sh" LoadBenchmark "${sizes[@]}"
