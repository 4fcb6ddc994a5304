#!/usr/bin/env bash
# Shared by bench/run*.sh: bench/launch.sh CLASS [ARG...] builds kopf4j's CLI and the bench module
# (mvn install), then runs io.kopf4j.bench.CLASS with the checkout's root and the arguments, with
# KUBEBUILDER_ASSETS set for its LocalClusters.
# MAVEN_OPTS_BENCH="-o"   extra options of the build's mvn calls (e.g. offline).
source "$(dirname "$(readlink -f "$0")")/../scripts/usage.sh" "$@"
set -euo pipefail
root=$(cd "$(dirname "$(readlink -f "$0")")/.." && pwd)
main_class=io.kopf4j.bench.${1:?usage: bench/launch.sh CLASS [ARG...]}
shift
source "$root/scripts/java-home.sh"
KUBEBUILDER_ASSETS=$("$root/scripts/envtest.sh")
export KUBEBUILDER_ASSETS
read -r -a mvn_options <<< "${MAVEN_OPTS_BENCH:-}"
mvn -q -B "${mvn_options[@]}" -f "$root/pom.xml" -pl kopf4j-cli,bench -am install -DskipTests
classpath_file=$(mktemp)
mvn -q -B "${mvn_options[@]}" -f "$root/bench/pom.xml" dependency:build-classpath -Dmdep.outputFile="$classpath_file"
classpath=$(cat "$classpath_file"); rm -f "$classpath_file"
exec "$JAVA_HOME/bin/java" -cp "$root/bench/target/classes:$classpath" "$main_class" "$root" "$@"
