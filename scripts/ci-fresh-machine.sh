#!/usr/bin/env bash
# CI as a fresh machine runs it: .ci/run on a fresh clone of this checkout's HEAD, with an empty Maven
# repository and none of kopf4j's caches, so that a missing install or fetch step fails here and not
# on the first CI machine that lacks what this one has kept (a warm ~/.m2 hid one: issue 34).
#
#   - the Maven repository: an empty one (-Dmaven.repo.local through MAVEN_OPTS, which every mvn that
#     CI starts inherits, the tests' own included); Maven Central is reached as a new machine reaches it;
#   - the caches: the image base (KOPF4J_IMAGE_CACHE), the envtest binaries (KOPF4J_ENVTEST_CACHE), the
#     compiled handlers (KOPF4J_CACHE_DIR) and the AOT cache (XDG_CACHE_HOME), all in empty directories;
#   - the clone: HEAD only; uncommitted changes are not in it (commit first).
# Everything lives in one temporary directory, removed at the end (--keep leaves it for a look).
# It prints the time CI took and exits with CI's exit code.
#
#   scripts/ci-fresh-machine.sh [--keep] [--warm-envtest]
#
# --warm-envtest keeps the envtest binaries' cache (~/.cache/kopf4j/envtest): they are built from
# Debian's sources by scripts/envtest.sh, not fetched by Maven, and their build adds about 10 minutes.
set -euo pipefail
usage() { sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "$0"; }
keep=false warm_envtest=false
for arg in "$@"; do
  case $arg in
    --keep) keep=true ;;
    --warm-envtest) warm_envtest=true ;;
    -h | --help) usage; exit 0 ;;
    *) echo "ci-fresh-machine: unknown argument '$arg' (see --help)" >&2; exit 2 ;;
  esac
done
root=$(cd "$(dirname "$(readlink -f "$0")")/.." && pwd)
work=$(mktemp -d)
$keep || trap 'rm -rf "$work"' EXIT
log() { printf '[ci-fresh-machine %s] %s\n' "$(date +%H:%M:%S)" "$*" >&2; }

git clone -q "$root" "$work/kopf4j"
mkdir -p "$work/m2" "$work/cache"
export MAVEN_OPTS="${MAVEN_OPTS:+$MAVEN_OPTS }-Dmaven.repo.local=$work/m2"
export KOPF4J_IMAGE_CACHE=$work/cache/images
export KOPF4J_CACHE_DIR=$work/cache/kopf4j
export XDG_CACHE_HOME=$work/cache
$warm_envtest || export KOPF4J_ENVTEST_CACHE=$work/cache/envtest
log "CI on a fresh clone of $(git -C "$root" rev-parse --short HEAD) in $work: an empty Maven repository" \
  "and empty caches$($warm_envtest && echo ', but the envtest binaries kept')"
started=$SECONDS
code=0
(cd "$work/kopf4j" && bash .ci/run) || code=$?
took=$((SECONDS - started))
log "CI $( ((code == 0)) && echo passed || echo "FAILED (exit $code)") in $((took / 60)) min $((took % 60)) s;" \
  "the Maven repository it filled: $(du -sh "$work/m2" | cut -f1)"
$keep && log "kept: $work"
exit "$code"
