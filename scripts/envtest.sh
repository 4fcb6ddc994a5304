#!/usr/bin/env bash
# Provision the binaries of a local Kubernetes control plane (kube-apiserver, etcd, kubectl, and
# kube-controller-manager where it can be built) for kopf4j's LocalCluster, and print the directory
# that holds them (one line on stdout; progress goes to stderr). Idempotent: once found or built,
# later runs return at once. The envtest archives ship no kube-controller-manager: a cluster of
# theirs runs no controllers (no garbage collector); the Debian build makes one of the same version.
#
# Where the binaries come from, in order:
#   1. $KUBEBUILDER_ASSETS, the controller-runtime convention (a directory with the binaries);
#   2. the cache: ${KOPF4J_ENVTEST_CACHE:-~/.cache/kopf4j/envtest}/<version>/ (highest version);
#   3. the official envtest release archive of controller-tools, when the network allows
#      (skipped with KOPF4J_ENVTEST_DOWNLOAD=never; gives up within seconds when offline);
#   4. on Debian-like machines: a build from Debian's `kubernetes` source package, with Go,
#      etcd and kubectl from Debian's archive, through the apt mirror the machine already uses
#      (about 10 minutes, 2.5 GB of temporary disk; needs root to install missing host tools).
#      A Debian-built cache from before kube-controller-manager was built gets it added (5 minutes).
#
# Knobs: KOPF4J_ENVTEST_CACHE, KOPF4J_ENVTEST_VERSION (download, default 1.31.0),
#        KOPF4J_ENVTEST_DOWNLOAD=never, KOPF4J_ENVTEST_DEBIAN_SUITE (default bookworm: the last
#        suite whose source still builds kube-apiserver), KOPF4J_ENVTEST_DEBIAN_MIRROR.
set -euo pipefail

log() { printf '[kopf4j envtest %s] %s\n' "$(date +%H:%M:%S)" "$*" >&2; }
# A cache that only lacks kube-controller-manager still serves when that binary cannot be built
# (offline, no root for host tools, a compile error): its clusters then run no controllers.
FALLBACK=""
serve_fallback() {
  [[ $BASHPID == "$$" ]] || exit 1   # in a command substitution: fail it, and the script's own trap serves
  log "kube-controller-manager could not be built; $FALLBACK serves without it (its clusters run no controllers);" \
      "delete the kube-controller-manager line of its VERSIONS to try again"
  echo "kube-controller-manager=not built $(date -u +%Y-%m-%dT%H:%M:%SZ)" >> "$FALLBACK/VERSIONS"
  echo "$FALLBACK"; exit 0
}
die() { log "ERROR: $*"; [[ -z "$FALLBACK" ]] || serve_fallback; exit 1; }
trap '[[ -z "$FALLBACK" ]] || serve_fallback' ERR
complete() { [[ -x "$1/kube-apiserver" && -x "$1/etcd" && -x "$1/kubectl" ]]; }

CACHE=${KOPF4J_ENVTEST_CACHE:-$HOME/.cache/kopf4j/envtest}

# One provisioning at a time: concurrent test runs on one machine would build into the same
# work directory and break each other; the later ones wait here and then find the cache filled.
mkdir -p "$CACHE"
exec 9>"$CACHE/.lock"
flock 9

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
# A cache that this script built from Debian's sources before it built kube-controller-manager too:
# only that binary is built, of the same source, into it.
CONTROLLERS_ONLY=""
if [[ -n "$best" && ! -x "$best/kube-controller-manager" ]] && grep -q '^kubernetes-source-deb=' "$best/VERSIONS" 2>/dev/null \
    && ! grep -q '^kube-controller-manager=' "$best/VERSIONS"; then
  CONTROLLERS_ONLY=$best FALLBACK=$best
  log "cached: $best, without kube-controller-manager: building it from the same Debian source"
elif [[ -n "$best" ]]; then
  log "cached: $best"
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
WORK=$CACHE/_work
SUITE=${KOPF4J_ENVTEST_DEBIAN_SUITE:-bookworm}
GO_PKG=golang-1.19   # bookworm's Go, which builds Kubernetes 1.20
KEYRING=/usr/share/keyrings/debian-archive-keyring.gpg
system_mirror() {
  local uri
  uri=$(grep -hE '^URIs:' /etc/apt/sources.list.d/*.sources 2>/dev/null | awk '{print $2}' | grep -v -- '-security' | head -n1)
  [[ -n $uri ]] || uri=$(grep -hE '^deb ' /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null | awk '{print $2}' | grep -v -- '-security' | head -n1)
  printf '%s' "${uri%/}"
}
MIRROR=${KOPF4J_ENVTEST_DEBIAN_MIRROR:-$(system_mirror)}
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

# A private apt configuration, so the system's sources and lists are left alone.
APTDIR=$WORK/apt
mkdir -p "$APTDIR/lists/partial" "$APTDIR/cache/archives/partial" "$APTDIR/sources.list.d" "$APTDIR/preferences.d"
cat > "$APTDIR/sources.list" <<EOF
deb     [signed-by=$KEYRING] $MIRROR $SUITE main
deb-src [signed-by=$KEYRING] $MIRROR $SUITE main
deb     [signed-by=$KEYRING] $MIRROR $SUITE-updates main
deb-src [signed-by=$KEYRING] $MIRROR $SUITE-updates main
deb     [signed-by=$KEYRING] ${MIRROR%/debian}/debian-security $SUITE-security main
deb-src [signed-by=$KEYRING] ${MIRROR%/debian}/debian-security $SUITE-security main
EOF
cat > "$APTDIR/apt.conf" <<EOF
Dir::Etc::SourceList "$APTDIR/sources.list";
Dir::Etc::SourceParts "$APTDIR/sources.list.d";
Dir::Etc::Preferences "$APTDIR/preferences";
Dir::Etc::PreferencesParts "$APTDIR/preferences.d";
Dir::State::Lists "$APTDIR/lists";
Dir::Cache "$APTDIR/cache";
APT::Sandbox::User "root";
EOF
export APT_CONFIG=$APTDIR/apt.conf
papt() { apt-get -q -o Debug::NoLocking=1 "$@"; }
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

DEBS=$WORK/debs; mkdir -p "$DEBS"
fetch_deb() {
  local p=$1 v arch f
  v=$(apt-cache policy "$p" | awk '/Candidate:/{print $2}')
  [[ -n "$v" && "$v" != "(none)" ]] || die "package $p not available"
  arch=$(apt-cache show "$p=$v" | awk '/^Architecture:/{print $2; exit}')
  f="$DEBS/${p}_${v#*:}_${arch}.deb"
  [[ -s "$f" ]] || (cd "$DEBS" && papt download "$p=$v" >&2)
  [[ -s "$f" ]] || die "download of $p failed"
  echo "$f"
}
GO_DEB=$(fetch_deb "$GO_PKG-go")
GOSRC_DEB=$(fetch_deb "$GO_PKG-src")
REFLECT2_DEB=$(fetch_deb golang-github-modern-go-reflect2-dev)
ETCD_DEB=$(fetch_deb etcd-server)
KUBECTL_DEB=$(fetch_deb kubernetes-client)
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
X=$(mktemp -d "$WORK/x.XXXXXX")
install -m 0755 "$SRC/_output/local/bin/linux/amd64/kube-controller-manager" "$X/kube-controller-manager"
if [[ -n "$CONTROLLERS_ONLY" ]]; then
  echo "kube-controller-manager=built $(date -u +%Y-%m-%dT%H:%M:%SZ) (providerless)" >> "$OUT/VERSIONS"
  mv -f "$X/kube-controller-manager" "$OUT/kube-controller-manager"
  rm -rf "$X" "$SRC"
  log "built: $OUT/kube-controller-manager"
  echo "$OUT"; exit 0
fi
install -m 0755 "$SRC/_output/local/bin/linux/amd64/kube-apiserver" "$X/kube-apiserver"
dpkg-deb -x "$ETCD_DEB" "$X/etcd-deb"; install -m 0755 "$X/etcd-deb/usr/bin/etcd" "$X/etcd"
dpkg-deb -x "$KUBECTL_DEB" "$X/kubectl-deb"; install -m 0755 "$X/kubectl-deb/usr/bin/kubectl" "$X/kubectl"
{
  echo "kubernetes=$K8S_VER"
  echo "kubernetes-source-deb=$SRC_VER ($SUITE)"
  echo "etcd=$("$X/etcd" --version | head -n1)"
  echo "built=$(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "kube-controller-manager=built with it (providerless)"
} > "$X/VERSIONS"
# kubectl last: a directory counts as complete by kube-apiserver, etcd and kubectl (here and in
# EnvtestAssets, whose look into the cache takes no lock), so another test JVM never takes it up
# without kube-controller-manager.
for f in kube-controller-manager VERSIONS kube-apiserver etcd kubectl; do mv -f "$X/$f" "$OUT/$f"; done
rm -rf "$X" "$SRC"
log "built: $OUT"
echo "$OUT"
