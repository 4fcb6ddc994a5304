#!/usr/bin/env bash
# Checks that a build on a JDK older than 21 stops at once with the one line that says which JDK it
# needs and how to give Maven one (the enforcer rule in pom.xml), not with the compiler's "release
# version 21 not supported". Runs `mvn validate` with the first JDK older than 21 it finds ($JAVA_HOME,
# `java` on the PATH, then /usr/lib/jvm); skips where there is none. Extra arguments go to Maven, e.g. -o.
source "$(dirname "$(readlink -f "$0")")/usage.sh" "$@"
set -euo pipefail
root=$(cd "$(dirname "$(readlink -f "$0")")/.." && pwd)
candidates=("${JAVA_HOME:-}")
command -v java > /dev/null && candidates+=("$(dirname "$(dirname "$(readlink -f "$(command -v java)")")")")
candidates+=(/usr/lib/jvm/*)
source "$root/scripts/java-home.sh"   # for kopf4j_java_version (it also sets JAVA_HOME, overridden below)

old_jdk=""
for candidate in "${candidates[@]}"; do
  [[ -n $candidate && -x $candidate/bin/java ]] || continue
  if (( $(kopf4j_java_version "$candidate" | cut -d. -f1) < 21 )); then old_jdk=$candidate; break; fi
done
[[ -n $old_jdk ]] || { echo "jdk-check: skipped, no JDK older than 21 here"; exit 0; }

expected="kopf4j builds with a JDK 21 or later; this Maven runs on Java $(kopf4j_java_version "$old_jdk")"
set +e
output=$(JAVA_HOME=$old_jdk PATH="$old_jdk/bin:$PATH" mvn -B -ntp -q -f "$root/pom.xml" validate "$@" 2>&1)
status=$?
set -e
fail() { echo "jdk-check: $1; Maven's output was:"$'\n'"$output" >&2; exit 1; }
(( status != 0 )) || fail "mvn validate on $old_jdk succeeded"
lines=$(grep -cF "$expected" <<< "$output" || true)
(( lines == 1 )) || fail "mvn validate on $old_jdk printed $lines lines starting '$expected' (expected one)"
grep -F "$expected" <<< "$output" | grep -qF "source scripts/java-home.sh" || fail "the line does not say how to give Maven a JDK 21+"
echo "jdk-check: on $old_jdk the build stops with: $(grep -F "$expected" <<< "$output" | sed 's/^\[ERROR\] //')"
