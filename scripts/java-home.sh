#!/usr/bin/env bash
# Sourced by ./kopf4j, scripts/test.sh and .ci/run: exports JAVA_HOME as a JDK of version 21 or
# later: $JAVA_HOME if it is one, else `java` on the PATH, else the newest under /usr/lib/jvm.
[[ ${BASH_SOURCE[0]} != "$0" ]] || source "$(dirname "$(readlink -f "$0")")/usage.sh" "$@"   # sourced: the caller's arguments are not ours
# The specification version ("25", "17", "1.8"): from the JDK's release file where it has one (every
# JDK since 9), which spares a JVM start per look (0.1 to 0.2 s; the launcher looked up to 4 times,
# 0.35 to 0.7 s of every `kopf4j` start), else from the JVM itself.
kopf4j_java_version() {
  local version
  version=$(sed -n 's/^JAVA_VERSION="\(.*\)"$/\1/p' "$1/release" 2>/dev/null)
  case $version in
    "") "$1/bin/java" -XshowSettings:properties -version 2>&1 | awk -F' = ' '/java.specification.version/{print $2}' ;;
    1.*) echo "$version" | cut -d. -f1-2 ;;
    *) echo "${version%%[!0-9]*}" ;;   # "25.0.1", "26-ea", "21+35": the leading digits
  esac
}
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
