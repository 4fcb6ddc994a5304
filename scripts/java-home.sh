#!/usr/bin/env bash
# Sourced by ./kopf4j, scripts/test.sh and .ci/run: exports JAVA_HOME as a JDK of version 21 or
# later: $JAVA_HOME if it is one, else `java` on the PATH, else the newest under /usr/lib/jvm.
[[ ${BASH_SOURCE[0]} != "$0" ]] || source "$(dirname "$(readlink -f "$0")")/usage.sh" "$@"   # sourced: the caller's arguments are not ours
kopf4j_java_version() { "$1/bin/java" -XshowSettings:properties -version 2>&1 | awk -F' = ' '/java.specification.version/{print $2}'; }
kopf4j_is_jdk21() { [[ -x "$1/bin/javac" ]] && (( $(kopf4j_java_version "$1" | cut -d. -f1) >= 21 )); }
kopf4j_find_jdk() {
  local candidate best=""
  if [[ -n "${JAVA_HOME:-}" ]] && kopf4j_is_jdk21 "$JAVA_HOME"; then echo "$JAVA_HOME"; return 0; fi
  if command -v javac >/dev/null; then
    candidate=$(dirname "$(dirname "$(readlink -f "$(command -v javac)")")")
    if kopf4j_is_jdk21 "$candidate"; then echo "$candidate"; return 0; fi
  fi
  for candidate in /usr/lib/jvm/* /opt/java/* "$HOME"/.sdkman/candidates/java/*; do
    [[ -d "$candidate" && ! -L "$candidate" ]] || continue
    kopf4j_is_jdk21 "$candidate" || continue
    if [[ -z "$best" ]] || (( $(kopf4j_java_version "$candidate" | cut -d. -f1) > $(kopf4j_java_version "$best" | cut -d. -f1) )); then
      best=$candidate
    fi
  done
  [[ -n "$best" ]] && echo "$best"
}
if ! JAVA_HOME=$(kopf4j_find_jdk); then
  echo "kopf4j needs a JDK 21 or later; none found. Install one and set JAVA_HOME to it." >&2
  exit 1
fi
export JAVA_HOME PATH="$JAVA_HOME/bin:$PATH"
