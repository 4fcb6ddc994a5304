#!/usr/bin/env bash
# Prints the JVM options kopf4j runs an operator with (./kopf4j and the benchmark use them; a
# container image should too, see docs/operations.md), for the Java at $1 (default: $JAVA_HOME).
# Why each, measured at N = 1000 objects in docs/performance.md:
#   -XX:TieredStopAtLevel=1   C1 only: the C2 compiler spent half the operator's CPU (20 of 41 s)
#                             optimizing code that waits on the network anyway.
#   -XX:+UseSerialGC          no GC threads of its own; an operator's live heap is small (~20 MB
#                             at 1000 objects) and its pauses are a few milliseconds.
#   -Xms16m -Xmx128m          the serial collector grows the heap to its maximum rather than
#                             collecting the old generation; the default maximum (a quarter of the
#                             machine's memory) let it reach 300 MB of mostly garbage. The live heap
#                             is ~20 MB at 1,000 objects and ~45 MB at 10,000 (64 MB made the
#                             collector thrash there: 1,000 full GCs, 150 s); raise it for more than
#                             ~25,000 objects: KOPF4J_JAVA_OPTS=-Xmx512m.
#   -XX:+ExitOnOutOfMemoryError  a heap too small ends the process (to be restarted, losing nothing:
#                             the state is on the objects) rather than leaving it half-working.
#   -XX:+UseCompactObjectHeaders (JDK 25+) 8-byte object headers: JSON trees are many small objects.
# KOPF4J_JAVA_OPTS is appended, so its options win: KOPF4J_JAVA_OPTS="-Xmx1g -XX:-UseSerialGC".
set -euo pipefail
java_home=${1:-${JAVA_HOME:?}}
options=(-XX:TieredStopAtLevel=1 -XX:+UseSerialGC -Xms16m -Xmx128m -XX:+ExitOnOutOfMemoryError)
version=$(awk -F'"' '/^JAVA_VERSION=/{print $2}' "$java_home/release" 2>/dev/null | cut -d. -f1)
if [[ ${version:-0} -ge 25 ]]; then
  options+=(-XX:+UseCompactObjectHeaders)
fi
echo "${options[*]}" "${KOPF4J_JAVA_OPTS:-}"
