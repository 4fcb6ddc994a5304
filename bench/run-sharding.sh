#!/usr/bin/env bash
# The sharding benchmark: bench/run-sharding.sh [OBJECTS]  (default: 3000). Prints a markdown table.
# Runs integration-tests' ShardingTest on a fresh LocalCluster per run: OBJECTS KopfExamples handled
# by 1, 2 and 3 replicas (`kopf4j run --shards auto`, JVMs of their own, 8 s Leases renewed every
# 1 s), each object's create handler exactly once, timed from the first POST until every object
# carries its diff-base; then 3 replicas with one SIGKILLed after a third of the objects (its
# objects' hand-over time) and one stopped with SIGTERM (the graceful hand-over). See docs/sharding.md.
# MAVEN_OPTS_BENCH="-o"   extra options of the build's mvn calls.
source "$(dirname "$(readlink -f "$0")")/../scripts/usage.sh" "$@"
set -euo pipefail
objects=${1:-3000}
root=$(cd "$(dirname "$(readlink -f "$0")")/.." && pwd)
source "$root/scripts/java-home.sh"
KUBEBUILDER_ASSETS=$("$root/scripts/envtest.sh")
export KUBEBUILDER_ASSETS
read -r -a mvn_options <<< "${MAVEN_OPTS_BENCH:-}"

log=$(mktemp)
trap 'rm -f "$log"' EXIT
run() {   # run TEST REPLICAS: the test's "Sharding:" lines
    mvn -B "${mvn_options[@]}" -f "$root/pom.xml" -pl integration-tests -am verify -Dtest="ShardingTest#$1" \
        -Dit.test="ShardingTest#$1" -Dsurefire.failIfNoSpecifiedTests=false \
        -Dkopf4j.it.shardingObjects="$objects" -Dkopf4j.it.shardingReplicas="$2" > "$log" 2>&1 \
        || { grep -E "Tests run:|FAIL|Exception" "$log" >&2; exit 1; }
    grep -o "Sharding: .*" "$log"
}
echo "| replicas | objects | seconds | objects/s | per replica |"
echo "|---|---|---|---|---|"
for replicas in 1 2 3; do
    run replicasHandleEveryObjectExactlyOnce "$replicas" | sed -E \
        's/Sharding: ([0-9]+) objects handled by ([0-9]+) replica\(s\) in ([0-9.]+) s \(([0-9]+) objects\/s\); per replica: (.*)/| \2 | \1 | \3 | \4 | \5 |/'
done
echo
run aKilledReplicasObjectsAreTakenOverAndNoneIsHandledTwiceAtOnce 3
