#!/usr/bin/env bash
# The load benchmark: bench/run.sh [N...]  (default: 200 1000). Prints a markdown table.
# Starts its own LocalCluster; the operator runs as a separate process (the CLI jar with
# bench/BenchHandlers.java) so that its peak RSS and CPU time can be read from /proc.
# KOPF4J_BENCH_JVM_OPTS="-Xmx256m -XX:+UseSerialGC" sets the operator JVM's options.
set -euo pipefail
root=$(cd "$(dirname "$(readlink -f "$0")")/.." && pwd)
source "$root/scripts/java-home.sh"
KUBEBUILDER_ASSETS=$("$root/scripts/envtest.sh")
export KUBEBUILDER_ASSETS
mvn -q -B -f "$root/pom.xml" -pl kopf4j-cli,bench -am install -DskipTests
classpath_file=$(mktemp)
mvn -q -B -f "$root/bench/pom.xml" dependency:build-classpath -Dmdep.outputFile="$classpath_file"
classpath=$(cat "$classpath_file"); rm -f "$classpath_file"
sizes=("$@"); [[ ${#sizes[@]} -gt 0 ]] || sizes=(200 1000)
exec "$JAVA_HOME/bin/java" -cp "$root/bench/target/classes:$classpath" io.kopf4j.bench.LoadBenchmark "$root" "${sizes[@]}"
