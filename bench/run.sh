#!/usr/bin/env bash
# The load benchmark: bench/run.sh [N...]  (default: 200 1000). Prints markdown tables.
# For each N it runs the floor operator (no framework), kopf4j (bench/BenchHandlers.java) and
# kopf4j with posting of logger lines off, each on a fresh LocalCluster and as a separate process,
# so that their peak RSS and CPU time can be read from /proc. See bench/README.md.
# KOPF4J_BENCH_OPERATORS=floor,kopf4j,kopf4j-quiet   which operators run, in this order.
# KOPF4J_BENCH_REPEATS=3                             run them 3 times, interleaved; report medians.
# KOPF4J_BENCH_JVM_OPTS="-Xmx256m -XX:+UseSerialGC"  the kopf4j operator JVM's options.
# MAVEN_OPTS_BENCH="-o"                              extra options of the build's mvn calls.
set -euo pipefail
root=$(cd "$(dirname "$(readlink -f "$0")")/.." && pwd)
source "$root/scripts/java-home.sh"
KUBEBUILDER_ASSETS=$("$root/scripts/envtest.sh")
export KUBEBUILDER_ASSETS
read -r -a mvn_options <<< "${MAVEN_OPTS_BENCH:-}"
mvn -q -B "${mvn_options[@]}" -f "$root/pom.xml" -pl kopf4j-cli,bench -am install -DskipTests
classpath_file=$(mktemp)
mvn -q -B "${mvn_options[@]}" -f "$root/bench/pom.xml" dependency:build-classpath -Dmdep.outputFile="$classpath_file"
classpath=$(cat "$classpath_file"); rm -f "$classpath_file"
sizes=("$@"); [[ ${#sizes[@]} -gt 0 ]] || sizes=(200 1000)
exec "$JAVA_HOME/bin/java" -cp "$root/bench/target/classes:$classpath" io.kopf4j.bench.LoadBenchmark "$root" "${sizes[@]}"
