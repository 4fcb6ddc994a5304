#!/usr/bin/env bash
# Prints the JVM options kopf4j runs an operator with, one per line (./kopf4j and the benchmark use
# them; a container image should too, see docs/operations.md), for the Java at $1 (default: $JAVA_HOME).
# Why each, measured in docs/performance.md ("Memory: the heap's default"):
#   -XX:TieredStopAtLevel=1   C1 only: the C2 compiler spent half the operator's CPU (20 of 41 s)
#                             optimizing code that waits on the network anyway.
#   -XX:MaxRAMPercentage=50   the maximum heap follows the container's memory limit (or the
#                             machine's memory when there is none): half of it; the other half is
#                             for the JVM's own ~100 MB (metaspace, code, threads) and the page
#                             cache. A fixed -Xmx128m crashed at 10,000 daemons, which need ~180 MB.
#   -XX:+UseG1GC -XX:GCTimeRatio=4 -XX:MinHeapFreeRatio=10 -XX:MaxHeapFreeRatio=30
#                             a collector whose heap follows the live data instead of the maximum:
#                             it grows only when collecting costs more than 20 % of the time, and
#                             shrinks to at most 30 % free after a marking. The serial collector
#                             grows to the maximum before it collects the old generation at all.
#   -XX:G1PeriodicGCInterval=15000 -XX:-G1PeriodicGCInvokesConcurrent
#                             after 15 s without a collection, a full one: it compacts the heap
#                             and gives the free part back to the OS. The concurrent cycle that G1
#                             runs instead by default frees only regions without any live object,
#                             so the garbage a burst left in the old generation stayed in the RSS
#                             (10,000 daemons at rest: 362 MiB, 291 with the full collection, whose
#                             pause took 0.12 to 0.15 s there; an idle operator's 35 ms, every 15 s).
#   -XX:G1HeapRegionSize=1m   the heap grows and shrinks by 1 MB regions, not by the 4 MB that G1
#                             picks for a maximum of gigabytes: an idle operator's heap is 28 MB,
#                             not 48, for 15 MB live, and after a load 20 to 50 MB less is kept.
#   -XX:TrimNativeHeapInterval=5000 (JDK 21.0.4+) the C library's heap gives back every 5 s what
#                             the JVM freed there (the compiler's and the class loading's buffers):
#                             glibc keeps it otherwise, and a spike at start-up stays in the RSS.
#   -Xms16m                   starts small: most operators need little.
#   -XX:+UseCompactObjectHeaders (JDK 25+) 8-byte object headers: JSON trees are many small objects.
# Running out of memory ends the process with one line naming the setting to raise, and exit code 3:
# the kopf4j command does that itself (runtime.OutOfMemory), not -XX:+ExitOnOutOfMemoryError.
# KOPF4J_JAVA_OPTS is appended, so its options win: KOPF4J_JAVA_OPTS="-Xmx1g".
source "$(dirname "$(readlink -f "$0")")/usage.sh" "$@"
set -euo pipefail
java_home=${1:-${JAVA_HOME:?}}
options=(-XX:TieredStopAtLevel=1 -XX:MaxRAMPercentage=50 -Xms16m -XX:+UseG1GC -XX:GCTimeRatio=4
  -XX:MinHeapFreeRatio=10 -XX:MaxHeapFreeRatio=30 -XX:G1PeriodicGCInterval=15000
  -XX:-G1PeriodicGCInvokesConcurrent -XX:G1HeapRegionSize=1m)
full_version=$(awk -F'"' '/^JAVA_VERSION=/{print $2}' "$java_home/release" 2>/dev/null)
IFS=. read -r version _ update _ <<< "${full_version:-0}"
version=${version%%[!0-9]*} update=${update%%[!0-9]*}   # "25-ea", "21.0.4+7": the leading digits
# The trimming is a product option since 22 and 21.0.4 (JDK-8325496); before, 21 has it experimental or not at all.
if [[ ${version:-0} -ge 22 || ( ${version:-0} -eq 21 && ${update:-0} -ge 4 ) ]]; then
  options+=(-XX:TrimNativeHeapInterval=5000)
fi
if [[ ${version:-0} -ge 25 ]]; then
  options+=(-XX:+UseCompactObjectHeaders)
fi
read -r -a user_options <<< "${KOPF4J_JAVA_OPTS:-}"
printf '%s\n' "${options[@]}" ${user_options[@]+"${user_options[@]}"}
