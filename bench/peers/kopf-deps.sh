#!/usr/bin/env bash
# Kopf's Python dependencies from Debian's archive, for the load benchmark's `kopf` operator on the
# machine's /usr/bin/python3: downloads Debian's packages of them, unpacks them with `dpkg-deb -x`
# into a private directory (nothing installed, the system's packages left alone) and prints the
# directory to put on PYTHONPATH (one line on stdout; progress goes to stderr). Debian's packages
# only: Kopf's own code is the checkout of KOPF4J_BENCH_KOPF_SOURCE, which this never touches.
#
#   bench/peers/kopf-deps.sh [-h | --help]
#
# Kopf 1.44 asks for aiohttp >= 3.11 and click >= 8.2; Debian 12 (bookworm) has 3.8.4 and 8.1.3.
# Each package named comes from the first of the suites whose build of it is of the version asked,
# as the dist-info it ships names it (trixie's click 8.2.0+0.really.8.1.8 is click 8.1.8, so click
# comes from sid), with the python3-* packages it depends on from the same suite (not libc6, libyaml:
# the machine's own serve, or nothing needs them). They are built for that suite's Python (3.13 in
# trixie, 3.14 in sid): on another Python their C extensions (*.cpython-313-*.so) do not load, and
# aiohttp, multidict, yarl, frozenlist, propcache and pyyaml run their pure-Python code instead, as
# with AIOHTTP_NO_EXTENSIONS=1 and the like; the pure-Python packages are the same on any Python.
# Debian's python3.13 itself does not run on bookworm (trixie's needs glibc 2.38; bookworm has 2.36).
#
# Idempotent: the unpacked packages stay in the cache, root/VERSIONS naming each package, its version
# and suite; later runs print the directory at once, even offline, until the knobs below change
# (or the cache is deleted). Where Debian's archive cannot be reached, a first run fails with one
# line saying so.
#
# Knobs: KOPF4J_BENCH_KOPF_DEPS (default "python3-aiohttp>=3.11 python3-click>=8.2 python3-iso8601
#          python3-jsonpatch python3-pythonjsonlogger python3-yaml": Kopf 1.44's dependencies),
#        KOPF4J_BENCH_KOPF_DEPS_SUITES (default "trixie sid": the suites tried in turn),
#        KOPF4J_BENCH_KOPF_DEPS_CACHE (default ~/.cache/kopf4j/bench/kopf-deps),
#        KOPF4J_BENCH_KOPF_DEPS_MIRROR (default: the machine's Debian mirror, from its apt sources).
source "$(dirname "$(readlink -f "$0")")/../../scripts/usage.sh" "$@"
set -euo pipefail
(($# == 0)) || { echo "kopf-deps.sh: unknown argument '$1' (it takes none but --help; its knobs are environment variables)" >&2; exit 2; }

log() { printf '[kopf4j kopf-deps %s] %s\n' "$(date +%H:%M:%S)" "$*" >&2; }
die() { log "ERROR: $*"; exit 1; }

DEPS=${KOPF4J_BENCH_KOPF_DEPS:-python3-aiohttp>=3.11 python3-click>=8.2 python3-iso8601 python3-jsonpatch python3-pythonjsonlogger python3-yaml}
SUITES=${KOPF4J_BENCH_KOPF_DEPS_SUITES:-trixie sid}
CACHE=${KOPF4J_BENCH_KOPF_DEPS_CACHE:-$HOME/.cache/kopf4j/bench/kopf-deps}
read -r -a DEP_LIST <<< "${DEPS//,/ }"
read -r -a SUITE_LIST <<< "${SUITES//,/ }"
((${#DEP_LIST[@]} && ${#SUITE_LIST[@]})) || die "KOPF4J_BENCH_KOPF_DEPS and KOPF4J_BENCH_KOPF_DEPS_SUITES each name at least one"
for s in "${SUITE_LIST[@]}"; do [[ $s =~ ^[a-z][a-z0-9-]*$ ]] || die "'$s' is not the name of a Debian suite"; done
for d in "${DEP_LIST[@]}"; do [[ $d =~ ^python3-[a-z0-9.+-]+(\>=[0-9][0-9.]*)?$ ]] || die "'$d' is not python3-NAME or python3-NAME>=VERSION"; done
REQUEST="${DEP_LIST[*]} from ${SUITE_LIST[*]}"
SITE=$CACHE/root/usr/lib/python3/dist-packages

mkdir -p "$CACHE"
exec 9>"$CACHE/.lock"
flock 9   # one fetch at a time; a second run waits, then finds the cache filled
if [[ -d $SITE ]] && [[ $(head -n1 "$CACHE/root/VERSIONS" 2>/dev/null) == "request: $REQUEST" ]]; then
  echo "$SITE"; exit 0
fi

command -v apt-get >/dev/null && command -v dpkg-deb >/dev/null || die "no apt-get or dpkg-deb: Debian's packages need a Debian-like machine"
KEYRING=/usr/share/keyrings/debian-archive-keyring.gpg
[[ -f $KEYRING ]] || die "no $KEYRING (the debian-archive-keyring package)"
# The machine's Debian mirror: the first of its apt sources' repositories that is not the security one.
MIRROR=${KOPF4J_BENCH_KOPF_DEPS_MIRROR:-$(apt-get indextargets --format '$(REPO_URI)' 2>/dev/null | grep -v -- '-security' | head -n1 || true)}
MIRROR=${MIRROR%/}
[[ -n $MIRROR ]] || die "no Debian mirror in the apt sources; set KOPF4J_BENCH_KOPF_DEPS_MIRROR"
DEBS=$CACHE/debs
mkdir -p "$DEBS"
rm -rf "$CACHE"/root.*   # what an interrupted run left (none runs now: the lock is held)

# apt-get and apt-cache on suite $1's lists of their own (the system's sources, lists and installed
# packages left alone and out of sight; each suite apart, so that each package's candidate is that
# suite's; with the binary caches that Debian's container images turn off, or each call reads all the
# lists again): apt_of SUITE apt-get ...
apt_of() {
  local dir=$CACHE/apt/$1 tool=$2; shift 2
  "$tool" -o "Dir::Etc::SourceList=$dir/sources.list" -o "Dir::Etc::SourceParts=$dir/empty" \
    -o "Dir::Etc::Preferences=$dir/empty/preferences" -o "Dir::Etc::PreferencesParts=$dir/empty" \
    -o "Dir::State::Lists=$dir/lists" -o "Dir::State::status=$dir/empty/status" -o "Dir::Cache=$dir/cache" \
    -o Dir::Cache::pkgcache=pkgcache.bin -o Dir::Cache::srcpkgcache=srcpkgcache.bin -o Debug::NoLocking=1 \
    -o APT::Sandbox::User=root -o Acquire::Retries=0 -o Acquire::http::Timeout=10 "$@"
}
# Fetches suite $1's lists, once a run. Offline, the lists of an earlier run (and the .deb files in
# $DEBS) still serve.
declare -A UPDATED=() UNREACHED=()
update_lists() {
  [[ -z ${UPDATED[$1]:-} ]] || return 0
  UPDATED[$1]=1
  mkdir -p "$CACHE/apt/$1/lists/partial" "$CACHE/apt/$1/cache/archives/partial" "$CACHE/apt/$1/empty"
  : > "$CACHE/apt/$1/empty/status"
  echo "deb [signed-by=$KEYRING] $MIRROR $1 main" > "$CACHE/apt/$1/sources.list"
  log "apt-get update (private lists of $1)"
  apt_of "$1" apt-get -q update --error-on=any >&2 </dev/null \
    || { UNREACHED[$1]=1; log "apt-get update of $1 failed; its lists from before serve, if any"; }
}
candidate() { apt_of "$1" apt-cache policy "$2" 2>/dev/null | awk '/Candidate:/{print $2}' | sed 's/^(none)$//'; }
# Suite $1's package $2 of version $3 as a .deb in $DEBS (downloaded once); prints its path.
deb_of() {
  local arch f
  arch=$(apt_of "$1" apt-cache show "$2=$3" | awk '/^Architecture:/ && !arch {arch = $2} END {print arch}') || return 1
  f=$DEBS/${2}_${3#*:}_$arch.deb
  [[ -s $f ]] || (cd "$DEBS" && apt_of "$1" apt-get -q download "$2=$3" >&2 </dev/null) || return 1
  [[ -s $f ]] && echo "$f"
}
# The upstream version of a .deb's Python package: that of the dist-info (or egg-info) it ships.
upstream_version() {
  dpkg-deb -c "$1" | sed -nE 's#.*/dist-packages/[^/]+-([0-9][^/-]*)(-py[0-9.]+)?\.(dist|egg)-info/.*#\1#p' | sort -uV | tail -n1
}
older() { [[ $(printf '%s\n%s\n' "$1" "$2" | sort -V | head -n1) != "$2" ]]; }   # is version $1 older than $2?
# The python3-* packages that suite $1's package $2 (version $3) depends on: of each alternative, the
# first that the suite has; the interpreter (python3, python3:any, python3-supported-min) excluded.
python_depends() {
  local group alternatives alternative name
  apt_of "$1" apt-cache show "$2=$3" | awk '/^Depends:/ && !seen++ {sub(/^Depends: */, ""); print}' | tr ',' '\n' |
    while read -r group; do
      read -r -a alternatives <<< "${group//|/ }"
      for alternative in "${alternatives[@]}"; do
        name=${alternative%%:*}
        [[ $name =~ ^python3-[a-z0-9] && $name != python3-supported-min && $name != python3-minimal ]] || continue
        [[ -n $(candidate "$1" "$name") ]] && { echo "$name"; break; }
      done
    done
}

X=$(mktemp -d "$CACHE/root.XXXXXX")
trap 'rm -rf "$X"' EXIT
echo "request: $REQUEST" > "$X/VERSIONS"
declare -A TAKEN=()
# Unpacks suite $1's package $2 (version $3, file $4) and, in turn, the python3-* packages it depends on.
take() {
  local suite=$1 package=$2 version=$3 deb=$4 dependency v f
  TAKEN[$package]=1
  dpkg-deb -x "$deb" "$X"
  echo "$package $version $suite" >> "$X/VERSIONS"
  for dependency in $(python_depends "$suite" "$package" "$version"); do
    [[ -z ${TAKEN[$dependency]:-} ]] || continue
    v=$(candidate "$suite" "$dependency")
    f=$(deb_of "$suite" "$dependency" "$v") || die "the download of $suite's $dependency $v (for $package) failed"
    take "$suite" "$dependency" "$v" "$f"
  done
}
joined() { local IFS=';'; echo "$*" | sed 's/;/; /g'; }
for dep in "${DEP_LIST[@]}"; do
  package=${dep%%>=*} minimum=${dep#"$package"}; minimum=${minimum#>=}
  [[ -z ${TAKEN[$package]:-} ]] || continue
  why=()
  for suite in "${SUITE_LIST[@]}"; do
    update_lists "$suite"
    v=$(candidate "$suite" "$package")
    if [[ -z $v ]]; then why+=("$suite: not in its lists${UNREACHED[$suite]:+, which could not be fetched}"); continue; fi
    # A Debian version below the minimum is one (8.1.3-2 < 8.2); one above it may not be (8.2.0+0.really.8.1.8).
    if [[ -n $minimum ]] && older "${v#*:}" "$minimum"; then why+=("$suite: $v"); continue; fi
    if ! f=$(deb_of "$suite" "$package" "$v"); then why+=("$suite: $v not downloaded"); continue; fi
    upstream=$(upstream_version "$f")
    if [[ -n $minimum ]] && older "${upstream:-0}" "$minimum"; then why+=("$suite: $v, which is ${upstream:-of no version} upstream"); continue; fi
    take "$suite" "$package" "$v" "$f"
    log "$package $v from $suite${why[*]:+ (not from $(joined "${why[@]}"))}"
    continue 2
  done
  reach=""; ((${#UNREACHED[@]} == 0)) || reach=": is Debian's archive ($MIRROR) out of reach?"
  die "no $package${minimum:+ >= $minimum} in Debian's ${SUITE_LIST[*]} ($(joined "${why[@]}"))$reach"
done

[[ ! -d $CACHE/root ]] || mv "$CACHE/root" "$CACHE/root.old"
mv "$X" "$CACHE/root"
rm -rf "$CACHE/root.old"
log "$(($(wc -l < "$CACHE/root/VERSIONS") - 1)) packages unpacked into $CACHE/root (their versions: $CACHE/root/VERSIONS)"
echo "$SITE"
