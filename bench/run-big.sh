#!/usr/bin/env bash
# The big-cluster benchmark: bench/run-big.sh [N] [M]  (defaults: 20000 200). Prints a markdown table.
# One LocalCluster with N Pods, none of them for the handlers; then each operator as its own process,
# one after another: it starts (lists and watches the namespace's Pods, or with a label selector only
# the M it handles), then M Pods labelled bench=handled are created, handled, deleted. Times, RSS,
# CPU, API requests and bytes received of kopf4j (bench/BenchBigCluster.java), kopf4j with a
# server-side label selector (and bench/BenchBigClusterSelector.java) and Kopf (which has none,
# bench/peers/kopf_bigcluster.py). See bench/README.md.
# KOPF4J_BENCH_OPERATORS=kopf4j,kopf4j-selector,kopf   which operators run, in this order.
# KOPF4J_BENCH_REPEATS=3                               run them 3 times, interleaved; report medians.
# KOPF4J_BENCH_KOPF_SOURCE=DIR                         a checkout of Kopf's source (else Kopf is skipped).
# KOPF4J_BENCH_JVM_OPTS="-Xmx256m"                     the kopf4j operator JVM's options.
# MAVEN_OPTS_BENCH="-o"                                extra options of the build's mvn calls.
source "$(dirname "$(readlink -f "$0")")/../scripts/usage.sh" "$@"
set -euo pipefail
exec "$(dirname "$(readlink -f "$0")")/launch.sh" BigClusterBenchmark "${1:-20000}" "${2:-200}"
