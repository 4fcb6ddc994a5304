#!/usr/bin/env bash
# Provision the binaries of a local Kubernetes control plane (kube-apiserver, etcd, kubectl, and
# kube-controller-manager where it can be built) for kopf4j's LocalCluster, and print the directory
# that holds them (one line on stdout; progress goes to stderr). Idempotent: once found or built,
# later runs return at once. The envtest archives ship no kube-controller-manager: a cluster of
# theirs runs no controllers (no garbage collector); the Debian build makes one of the same version.
#
#   scripts/envtest.sh [-h | --help]
#
# Where the binaries come from, in order:
#   1. $KUBEBUILDER_ASSETS, the controller-runtime convention (a directory with the binaries);
#   2. the cache: ${KOPF4J_ENVTEST_CACHE:-~/.cache/kopf4j/envtest}/<version>/ (highest version);
#   3. the official envtest release archive of controller-tools, when the network allows
#      (skipped with KOPF4J_ENVTEST_DOWNLOAD=never; gives up within seconds when offline);
#   4. on Debian-like machines: a build of Kubernetes 1.20.2 from bookworm's `kubernetes` source
#      package with bookworm's Go, kubectl from bookworm and etcd 3.5 from sid (or trixie), all
#      through the apt mirror the machine already uses (about 10 minutes, 2.5 GB of temporary disk;
#      needs root to install missing host tools). bookworm's etcd 3.4 is only the fallback, taken
#      when no etcd 3.5 can be fetched or run here (and tried again a day later).
#      A Debian-built cache from before gets what it lacks, without a rebuild: etcd 3.5 in place
#      of its etcd 3.4 (seconds), kube-controller-manager (5 minutes). Offline, it serves as it is.
#
# Knobs: KOPF4J_ENVTEST_CACHE, KOPF4J_ENVTEST_VERSION (download, default 1.31.0),
#        KOPF4J_ENVTEST_DOWNLOAD=never (the official archive only: Debian's archive is still used),
#        KOPF4J_ENVTEST_DEBIAN_SUITE (default bookworm: the last suite whose source still builds
#        kube-apiserver; named, not the machine's own, so that a newer Debian finds it too),
#        KOPF4J_ENVTEST_ETCD_SUITE (default "sid trixie": the suites tried in turn for etcd 3.5),
#        KOPF4J_ENVTEST_DEBIAN_MIRROR (default: the first of the machine's apt sources).
# -E: the ERR trap (the fallback below) also fires on a failure inside a function, such as papt's.
set -Eeuo pipefail

usage() { sed -n '2,/^# -E:/{/^# -E:/d;s/^# \{0,1\}//;p}' "$0"; }
case "${1:-}" in
  "") ;;
  -h | --help) usage; exit 0 ;;
  *) echo "envtest.sh: unknown argument '$1' (it takes none but --help; its knobs are environment variables)" >&2; exit 2 ;;
esac

log() { printf '[kopf4j envtest %s] %s\n' "$(date +%H:%M:%S)" "$*" >&2; }
# A complete cache directory to which something is being added (kube-controller-manager, or etcd 3.5
# in place of 3.4) serves as it is when that fails (offline, no root for host tools, a compile error): FALLBACK_WHY says what it
# then lacks, FALLBACK_RECORD is appended to its VERSIONS so that later runs do not try again each time.
FALLBACK="" FALLBACK_WHY="" FALLBACK_RECORD=""
serve_fallback() {
  [[ $BASHPID == "$$" ]] || exit 1   # in a command substitution: fail it, and the script's own trap serves
  log "$FALLBACK_WHY"
  [[ -z "$FALLBACK_RECORD" ]] || echo "$FALLBACK_RECORD" >> "$FALLBACK/VERSIONS"
  echo "$FALLBACK"; exit 0
}
die() { log "ERROR: $*"; [[ -z "$FALLBACK" ]] || serve_fallback; exit 1; }
trap '[[ -z "$FALLBACK" ]] || serve_fallback' ERR
complete() { [[ -x "$1/kube-apiserver" && -x "$1/etcd" && -x "$1/kubectl" ]]; }
now() { date -u +%Y-%m-%dT%H:%M:%SZ; }

CACHE=${KOPF4J_ENVTEST_CACHE:-$HOME/.cache/kopf4j/envtest}
WORK=$CACHE/_work
# Debian's suites by name, never the machine's own: Kubernetes 1.20.2's source (and the Go that builds
# it) is bookworm's, and a machine on trixie or later finds it there all the same.
SUITE=${KOPF4J_ENVTEST_DEBIAN_SUITE:-bookworm}
GO_PKG=golang-1.19   # bookworm's Go, which builds Kubernetes 1.20
# etcd 3.5, the series of Kubernetes 1.22 to 1.33 (1.34 and later ship 3.6, which Debian does not
# package): sid has it, trixie too (an older 3.5) should sid be gone from the mirror. kube-apiserver
# 1.20's client works with it, and it takes over a data directory of 3.4 (a kept cluster's), which
# 3.6 would not. Only this series is taken; bookworm's 3.4 is the fallback.
ETCD_SERIES=3.5
ETCD_SUITES=${KOPF4J_ENVTEST_ETCD_SUITE:-sid trixie}
read -r -a ETCD_SUITE_LIST <<< "${ETCD_SUITES//,/ }"   # split by read: a '*' stays a '*'
ETCD_SUITES=${ETCD_SUITE_LIST[*]}
((${#ETCD_SUITE_LIST[@]})) || { log "ERROR: KOPF4J_ENVTEST_ETCD_SUITE names no suite"; exit 2; }
for s in "$SUITE" "${ETCD_SUITE_LIST[@]}"; do
  [[ $s =~ ^[a-z][a-z0-9-]*$ ]] || { log "ERROR: '$s' is not the name of a Debian suite (KOPF4J_ENVTEST_DEBIAN_SUITE, KOPF4J_ENVTEST_ETCD_SUITE)"; exit 2; }
done
KEYRING=/usr/share/keyrings/debian-archive-keyring.gpg

# One provisioning at a time: concurrent test runs on one machine would build into the same
# work directory and break each other; the later ones wait here and then find the cache filled.
mkdir -p "$CACHE"
exec 9>"$CACHE/.lock"
flock 9
rm -rf "$WORK"/x.* "$WORK"/etcd.*   # what an interrupted run left (none runs now: the lock is held)

# ---------------------------------------------------------------- Debian's archive
# Used by the cache (an etcd upgrade) and by the build (4.).
system_mirror() {
  local uri
  uri=$(grep -hE '^URIs:' /etc/apt/sources.list.d/*.sources 2>/dev/null | awk '{print $2}' | grep -v -- '-security' | head -n1)
  [[ -n $uri ]] || uri=$(grep -hE '^deb ' /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null | awk '{print $2}' | grep -v -- '-security' | head -n1)
  printf '%s' "${uri%/}"
}
MIRROR=${KOPF4J_ENVTEST_DEBIAN_MIRROR:-$(system_mirror || true)}
MIRROR=${MIRROR%/}
DEBS=$WORK/debs

# A private apt configuration in directory $1 with the sources lines that follow, so that the
# system's sources and lists are left alone; prints the path of its apt.conf.
private_apt() {
  local dir=$1; shift
  mkdir -p "$dir/lists/partial" "$dir/cache/archives/partial" "$dir/sources.list.d" "$dir/preferences.d" || return 1
  printf '%s\n' "$@" > "$dir/sources.list" || return 1
  cat > "$dir/apt.conf" <<EOF || return 1
Dir::Etc::SourceList "$dir/sources.list";
Dir::Etc::SourceParts "$dir/sources.list.d";
Dir::Etc::Preferences "$dir/preferences";
Dir::Etc::PreferencesParts "$dir/preferences.d";
Dir::State::Lists "$dir/lists";
Dir::Cache "$dir/cache";
APT::Sandbox::User "root";
EOF
  echo "$dir/apt.conf"
}
papt() { apt-get -q -o Debug::NoLocking=1 "$@"; }
# The candidate version of package $2 under the apt configuration $1 (empty if none).
candidate() { APT_CONFIG=$1 apt-cache policy "$2" 2>/dev/null | awk '/Candidate:/{print $2}' | sed 's/^(none)$//'; }
# Downloads package $2's candidate under the apt configuration $1 into $DEBS (once: a later run, even
# offline, takes the file there) and prints the file's path; fails, without exiting, when it cannot.
deb_of() {
  local conf=$1 p=$2 v arch f
  v=$(candidate "$conf" "$p") && [[ -n "$v" ]] || return 1
  arch=$(APT_CONFIG=$conf apt-cache show "$p=$v" | awk '/^Architecture:/{print $2; exit}') || return 1
  f="$DEBS/${p}_${v#*:}_${arch}.deb"
  mkdir -p "$DEBS" || return 1
  [[ -s "$f" ]] || (cd "$DEBS" && APT_CONFIG=$conf papt download "$p=$v" >&2) || return 1
  [[ -s "$f" ]] || return 1
  echo "$f"
}
# The version an etcd binary says it is (3.5.30), or empty if it does not run here.
etcd_version() { "$1" --version 2>/dev/null | awk '/^etcd Version:/{print $3}' || true; }
older_than_etcd_series() { [[ -z $1 || $(printf '%s\n%s\n' "$1" "$ETCD_SERIES" | sort -V | head -n1) != "$ETCD_SERIES" ]]; }

# Puts etcd $ETCD_SERIES into directory $1, from the first of the etcd suites whose etcd-server is of
# that series and runs on this machine (its libc may be too old for a newer suite's build), and sets
# ETCD_RECORD to what VERSIONS says of it; fails, without exiting, when no suite has one. Each suite
# has lists of its own: in bookworm's, sid's newer packages would become the candidates for Go too.
fetch_etcd() {
  local out=$1 suite conf v deb x
  [[ -n $MIRROR ]] || { log "no Debian mirror in the apt sources (set KOPF4J_ENVTEST_DEBIAN_MIRROR)"; return 1; }
  [[ -f $KEYRING ]] || { log "no $KEYRING (the debian-archive-keyring package)"; return 1; }
  command -v dpkg-deb >/dev/null || { log "no dpkg-deb"; return 1; }
  for suite in "${ETCD_SUITE_LIST[@]}"; do
    conf=$(private_apt "$WORK/apt-etcd/$suite" "deb [signed-by=$KEYRING] $MIRROR $suite main") || return 1
    log "apt-get update (private lists, suite $suite, for etcd $ETCD_SERIES)"
    # Offline, the lists of an earlier run (and the .deb in $DEBS) still serve.
    APT_CONFIG=$conf papt -o Acquire::Retries=1 update >&2 </dev/null || log "apt-get update of $suite failed; its lists from before serve, if any"
    v=$(candidate "$conf" etcd-server)
    if [[ -z "$v" ]]; then
      log "no etcd-server in $suite's lists (out of reach, or not there)"; continue
    elif [[ "$v" != "$ETCD_SERIES".* ]]; then
      log "$suite has etcd-server $v, not $ETCD_SERIES.x"; continue
    fi
    if ! deb=$(deb_of "$conf" etcd-server); then
      log "the download of $suite's etcd-server $v failed"; continue
    fi
    x=$(mktemp -d "$WORK/etcd.XXXXXX") || return 1
    if dpkg-deb -x "$deb" "$x" && [[ $(etcd_version "$x/usr/bin/etcd") == "$ETCD_SERIES".* ]] \
        && install -m 0755 "$x/usr/bin/etcd" "$out/etcd"; then
      ETCD_RECORD="etcd Version: $(etcd_version "$out/etcd") (etcd-server $v, $suite)"
      rm -rf "$x"; return 0
    fi
    log "$suite's etcd-server $v does not run here: $("$x/usr/bin/etcd" --version 2>&1 | head -n1)"
    rm -rf "$x"
  done
  return 1
}
# VERSIONS' line for a failed attempt at etcd $ETCD_SERIES: later runs within a day do not try again.
ETCD_NOT_FETCHED="etcd-$ETCD_SERIES=not fetched"
etcd_tried_lately() {
  local last
  last=$(grep "^$ETCD_NOT_FETCHED " "$1/VERSIONS" 2>/dev/null | tail -n1 | awk '{print $3}')
  [[ -n $last ]] && (( $(date +%s) - $(date -d "$last" +%s 2>/dev/null || echo 0) < 86400 ))
}

# ---------------------------------------------------------------- 1. KUBEBUILDER_ASSETS
if [[ -n "${KUBEBUILDER_ASSETS:-}" ]]; then
  complete "$KUBEBUILDER_ASSETS" || die "KUBEBUILDER_ASSETS=$KUBEBUILDER_ASSETS lacks kube-apiserver, etcd or kubectl"
  log "using KUBEBUILDER_ASSETS: $KUBEBUILDER_ASSETS"
  echo "$KUBEBUILDER_ASSETS"; exit 0
fi

# ---------------------------------------------------------------- 2. the cache
best=""
for d in "$CACHE"/*/; do
  d=${d%/}
  complete "$d" || continue
  best=$(printf '%s\n%s\n' "$best" "$d" | sed '/^$/d' | sort -V | tail -n1)
done
# A cache that this script built from Debian's sources with etcd 3.4 (before etcd came from sid, or
# when none could be fetched): etcd $ETCD_SERIES takes its place, the rest stays as built. When it
# cannot be fetched, the directory serves as it is (KOPF4J_ENVTEST_DOWNLOAD=never does not stop the
# attempt: CI machines reach Debian's archive). An etcd binary is replaced by a rename, so that a
# cluster that starts meanwhile runs the one or the other; a running one keeps its own.
if [[ -n "$best" ]] && grep -q '^kubernetes-source-deb=' "$best/VERSIONS" 2>/dev/null; then
  had=$(etcd_version "$best/etcd")
  if ! older_than_etcd_series "$had"; then
    :
  elif etcd_tried_lately "$best"; then
    log "$best has etcd ${had:-that does not run here}: no etcd $ETCD_SERIES could be fetched within the last day;" \
        "delete the '$ETCD_NOT_FETCHED' lines of its VERSIONS to try again now"
  else
    log "$best has etcd ${had:-that does not run here}: fetching etcd $ETCD_SERIES from $ETCD_SUITES in its place"
    FALLBACK=$best FALLBACK_WHY="etcd $ETCD_SERIES could not be put into $best; it serves with etcd ${had:-as it is}" \
        FALLBACK_RECORD="$ETCD_NOT_FETCHED $(now) ($ETCD_SUITES)"
    mkdir -p "$WORK"
    X=$(mktemp -d "$WORK/x.XXXXXX")
    if fetch_etcd "$X"; then
      { grep -v -e '^etcd=' -e "^$ETCD_NOT_FETCHED " "$best/VERSIONS" || true
        echo "etcd=$ETCD_RECORD"
        echo "etcd-replaced=$(now) (was ${had:-not running})"; } > "$X/VERSIONS"
      mv -f "$X/etcd" "$best/etcd"
      mv -f "$X/VERSIONS" "$best/VERSIONS"
      log "$best: etcd $(etcd_version "$best/etcd") in place of ${had:-the etcd that did not run}"
    else
      log "no etcd $ETCD_SERIES from $ETCD_SUITES; $best keeps etcd ${had:-as it is} (tried again in a day)"
      echo "$FALLBACK_RECORD" >> "$best/VERSIONS"
    fi
    rm -rf "$X"
    FALLBACK="" FALLBACK_WHY="" FALLBACK_RECORD=""
  fi
fi
# A cache that this script built from Debian's sources before it built kube-controller-manager too:
# only that binary is built, of the same source, into it.
CONTROLLERS_ONLY=""
if [[ -n "$best" && ! -x "$best/kube-controller-manager" ]] && grep -q '^kubernetes-source-deb=' "$best/VERSIONS" 2>/dev/null \
    && ! grep -q '^kube-controller-manager=' "$best/VERSIONS"; then
  CONTROLLERS_ONLY=$best FALLBACK=$best
  FALLBACK_WHY="kube-controller-manager could not be built; $best serves without it (its clusters run no controllers); delete the kube-controller-manager line of its VERSIONS to try again"
  FALLBACK_RECORD="kube-controller-manager=not built $(now)"
  log "cached: $best, without kube-controller-manager: building it from the same Debian source"
elif [[ -n "$best" ]]; then
  log "cached: $best (etcd $(etcd_version "$best/etcd"))"
  echo "$best"; exit 0
fi

# ---------------------------------------------------------------- 3. official archive
download() {
  local version=${KOPF4J_ENVTEST_VERSION:-1.31.0} os arch url out tmp
  os=$(uname -s | tr '[:upper:]' '[:lower:]')
  case "$(uname -m)" in x86_64) arch=amd64 ;; aarch64|arm64) arch=arm64 ;; *) return 1 ;; esac
  url="https://github.com/kubernetes-sigs/controller-tools/releases/download/envtest-v$version/envtest-v$version-$os-$arch.tar.gz"
  command -v curl >/dev/null || return 1
  log "downloading $url"
  tmp=$(mktemp -d)
  if ! curl -fsSL --connect-timeout 5 --max-time 300 -o "$tmp/envtest.tar.gz" "$url"; then
    rm -rf "$tmp"; return 1
  fi
  out=$CACHE/$version
  mkdir -p "$out"
  tar -xzf "$tmp/envtest.tar.gz" -C "$tmp"
  for b in kube-apiserver etcd kubectl; do install -m 0755 "$(find "$tmp" -type f -name "$b" | head -n1)" "$out/$b"; done
  rm -rf "$tmp"
  echo "source=$url" > "$out/VERSIONS"
  complete "$out" && echo "$out"
}
if [[ -z "$CONTROLLERS_ONLY" && "${KOPF4J_ENVTEST_DOWNLOAD:-auto}" != never ]]; then
  if out=$(download); then
    log "downloaded: $out"; echo "$out"; exit 0
  fi
  log "the official envtest archive is out of reach; building from Debian sources instead"
fi

# ---------------------------------------------------------------- 4. Debian build
command -v apt-get >/dev/null || die "no binaries found and this is not a Debian-like machine: set KUBEBUILDER_ASSETS"
[[ -n $MIRROR ]] || die "no Debian mirror in the apt sources; set KOPF4J_ENVTEST_DEBIAN_MIRROR"

need=()
command -v dpkg-source >/dev/null || need+=(dpkg-dev)
command -v make >/dev/null || need+=(make)
command -v rsync >/dev/null || need+=(rsync)
[[ -f $KEYRING ]] || need+=(debian-archive-keyring)
if ((${#need[@]})); then
  [[ $(id -u) -eq 0 ]] || die "missing host packages: ${need[*]} (install them as root)"
  log "installing host packages: ${need[*]}"
  apt-get update -qq >&2
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need[@]}" >&2
fi

APT_CONFIG=$(private_apt "$WORK/apt" \
  "deb     [signed-by=$KEYRING] $MIRROR $SUITE main" \
  "deb-src [signed-by=$KEYRING] $MIRROR $SUITE main" \
  "deb     [signed-by=$KEYRING] $MIRROR $SUITE-updates main" \
  "deb-src [signed-by=$KEYRING] $MIRROR $SUITE-updates main" \
  "deb     [signed-by=$KEYRING] ${MIRROR%/debian}/debian-security $SUITE-security main" \
  "deb-src [signed-by=$KEYRING] ${MIRROR%/debian}/debian-security $SUITE-security main")
export APT_CONFIG
log "apt-get update (private lists, suite $SUITE)"
papt update >&2

SRC_VER=$(apt-cache showsrc kubernetes 2>/dev/null | awk '/^Version:/{print $2}' | sort -V | tail -n1)
[[ -n "$SRC_VER" ]] || die "no 'kubernetes' source package in $SUITE"
K8S_VER=${SRC_VER#*:}; K8S_VER=${K8S_VER%-*}; K8S_VER=${K8S_VER##*really}; K8S_VER=${K8S_VER%%+*}
[[ "$K8S_VER" =~ ^[0-9]+\.[0-9]+\.[0-9]+$ ]] || die "cannot tell the Kubernetes version from '$SRC_VER'"
OUT=$CACHE/$K8S_VER
if [[ -n "$CONTROLLERS_ONLY" && "$OUT" != "$CONTROLLERS_ONLY" ]]; then
  log "the cached $CONTROLLERS_ONLY is not Debian's current $K8S_VER: building $K8S_VER whole beside it"
  CONTROLLERS_ONLY=""
fi
log "building Kubernetes $K8S_VER from Debian source $SRC_VER with $GO_PKG"

fetch_deb() { deb_of "$APT_CONFIG" "$1" || die "package $1 is not in $SUITE, or its download failed"; }
GO_DEB=$(fetch_deb "$GO_PKG-go")
GOSRC_DEB=$(fetch_deb "$GO_PKG-src")
REFLECT2_DEB=$(fetch_deb golang-github-modern-go-reflect2-dev)
X=$(mktemp -d "$WORK/x.XXXXXX")
if [[ -z "$CONTROLLERS_ONLY" ]]; then
  KUBECTL_DEB=$(fetch_deb kubernetes-client)
  # Before the build, so that a failure shows at once: etcd 3.5, else bookworm's 3.4.
  ETCD_FALLBACK=""
  if ! fetch_etcd "$X"; then
    ETCD_DEB=$(fetch_deb etcd-server)
    dpkg-deb -x "$ETCD_DEB" "$X/etcd-deb"; install -m 0755 "$X/etcd-deb/usr/bin/etcd" "$X/etcd"
    ETCD_RECORD="etcd Version: $(etcd_version "$X/etcd") (etcd-server $(candidate "$APT_CONFIG" etcd-server), $SUITE)"
    ETCD_FALLBACK="$ETCD_NOT_FETCHED $(now) ($ETCD_SUITES)"
    log "no etcd $ETCD_SERIES from $ETCD_SUITES: $SUITE's etcd $(etcd_version "$X/etcd") serves in its place (the fallback; tried again in a day)"
  fi
fi
SRCDL=$WORK/source; mkdir -p "$SRCDL"
DSC="$SRCDL/kubernetes_${SRC_VER#*:}.dsc"
[[ -s "$DSC" ]] || (cd "$SRCDL" && papt source --download-only "kubernetes=$SRC_VER" >&2)

TC=$WORK/toolchain/$GO_PKG
if [[ ! -f "$TC/.complete" ]]; then
  rm -rf "$TC"; mkdir -p "$TC"
  for f in "$GO_DEB" "$GOSRC_DEB" "$REFLECT2_DEB"; do dpkg-deb -x "$f" "$TC"; done
  touch "$TC/.complete"
fi
GOROOT=$(echo "$TC"/usr/lib/go-*)
export GOROOT PATH="$GOROOT/bin:$PATH" GOPROXY=off GOFLAGS= GOTOOLCHAIN=local CGO_ENABLED=0

SRC=$WORK/kubernetes-$K8S_VER
rm -rf "$SRC"
dpkg-source --no-check -x "$DSC" "$SRC" >&2
find "$WORK" -maxdepth 1 -name 'kubernetes_*.orig.tar.*' -delete
# Kubernetes 1.20 vendors modern-go/reflect2 1.0.1, which crashes under Go >= 1.18; Debian's
# 1.0.2 has the same API and works.
R2=$SRC/vendor/github.com/modern-go/reflect2
if [[ -d "$R2" && ! -f "$R2/go_above_118.go" ]]; then
  rm -f "$R2"/*.go "$R2"/*.s
  cp "$TC"/usr/share/gocode/src/github.com/modern-go/reflect2/*.go "$TC"/usr/share/gocode/src/github.com/modern-go/reflect2/*.s "$R2"/
fi
(
  cd "$SRC"
  SOURCE_DATE_EPOCH=$(dpkg-parsechangelog -l debian/changelog -STimestamp 2>/dev/null || date +%s)
  export SOURCE_DATE_EPOCH
  unset GOPATH GOCACHE
  if [[ -z "$CONTROLLERS_ONLY" ]]; then
    log "generating the OpenAPI definitions"
    make gen_openapi >&2
    log "building kube-apiserver"
    KUBE_VERBOSE=1 hack/make-rules/build.sh cmd/kube-apiserver >&2
  fi
  # Without the in-tree cloud providers (their SDKs): a third of the time to build, and a local
  # cluster has no cloud. kube-controller-manager needs no generated OpenAPI definitions.
  log "building kube-controller-manager"
  GOFLAGS=-tags=providerless KUBE_VERBOSE=1 hack/make-rules/build.sh cmd/kube-controller-manager >&2
)
mkdir -p "$OUT"
install -m 0755 "$SRC/_output/local/bin/linux/amd64/kube-controller-manager" "$X/kube-controller-manager"
if [[ -n "$CONTROLLERS_ONLY" ]]; then
  echo "kube-controller-manager=built $(now) (providerless)" >> "$OUT/VERSIONS"
  mv -f "$X/kube-controller-manager" "$OUT/kube-controller-manager"
  rm -rf "$X" "$SRC"
  log "built: $OUT/kube-controller-manager"
  echo "$OUT"; exit 0
fi
install -m 0755 "$SRC/_output/local/bin/linux/amd64/kube-apiserver" "$X/kube-apiserver"
dpkg-deb -x "$KUBECTL_DEB" "$X/kubectl-deb"; install -m 0755 "$X/kubectl-deb/usr/bin/kubectl" "$X/kubectl"
{
  echo "kubernetes=$K8S_VER"
  echo "kubernetes-source-deb=$SRC_VER ($SUITE)"
  echo "etcd=$ETCD_RECORD"
  [[ -z "$ETCD_FALLBACK" ]] || echo "$ETCD_FALLBACK"
  echo "built=$(now)"
  echo "kube-controller-manager=built with it (providerless)"
} > "$X/VERSIONS"
# kubectl last: a directory counts as complete by kube-apiserver, etcd and kubectl (here and in
# EnvtestAssets, whose look into the cache takes no lock), so another test JVM never takes it up
# without kube-controller-manager.
for f in kube-controller-manager VERSIONS kube-apiserver etcd kubectl; do mv -f "$X/$f" "$OUT/$f"; done
rm -rf "$X" "$SRC"
log "built: $OUT"
echo "$OUT"
