#!/usr/bin/env bash
# A JRE 21 base for the operator's image where no container registry is reachable (docs/deploying.md,
# "Which base"): a root filesystem with Debian's JRE made by mmdebstrap, imported by podman and saved
# as a docker archive, which Jib takes as the base of the image:
#   mvn package jib:buildTar -Djib.from.image=tar://$(scripts/base-image.sh)
# Prints the archive's path (one line on stdout; progress goes to stderr). Built once and cached in
# ${KOPF4J_IMAGE_CACHE:-~/.cache/kopf4j/images}/<hash of its inputs>/base.tar (a first run: about a
# minute); the image is also left in podman's storage as localhost/kopf4j-base:<hash>.
# Needs root (podman runs as root on these machines), podman and mmdebstrap (installed with apt when
# missing), and Debian's archive (the machine's apt mirror). Where it cannot build here, it says why
# and exits 3; a build that fails exits 1.
# Knobs: KOPF4J_IMAGE_CACHE, KOPF4J_IMAGE_DEBIAN_SUITE (trixie: bookworm has no JRE 21),
# KOPF4J_IMAGE_DEBIAN_MIRROR (the machine's apt mirror), KOPF4J_IMAGE_JRE_PACKAGE (openjdk-21-jre-headless).
source "$(dirname "$(readlink -f "$0")")/usage.sh" "$@"
set -euo pipefail
log() { printf '[base-image %s] %s\n' "$(date +%H:%M:%S)" "$*" >&2; }
cannot() { log "cannot build the base here: $*"; exit 3; }
fail() { log "FAILED: $*"; exit 1; }

[[ $(id -u) -eq 0 ]] || cannot "podman runs as root only on these machines; run this script as root"
missing=()
command -v podman > /dev/null || missing+=(podman)
command -v mmdebstrap > /dev/null || missing+=(mmdebstrap)
if ((${#missing[@]})); then
  command -v apt-get > /dev/null || cannot "${missing[*]} missing and no apt-get to install them"
  log "installing ${missing[*]} (apt)"
  if ! { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}"; } > /dev/null; then
    cannot "apt cannot install ${missing[*]}"
  fi
fi

suite=${KOPF4J_IMAGE_DEBIAN_SUITE:-trixie}
jre=${KOPF4J_IMAGE_JRE_PACKAGE:-openjdk-21-jre-headless}
mirror=${KOPF4J_IMAGE_DEBIAN_MIRROR:-$(awk '$1 == "URIs:" && $2 !~ /-security/ {print $2; exit}' /etc/apt/sources.list.d/*.sources 2> /dev/null || true)}
mirror=${mirror:-http://deb.debian.org/debian}
# What the root filesystem is made of: its cache key. The man directories stay (excluded, they break
# update-alternatives in the JRE's postinst); docs and locales go.
mmdebstrap_args=(--variant=essential "--include=$jre" --dpkgopt='path-exclude=/usr/share/doc/*'
  --dpkgopt='path-exclude=/usr/share/man/*' --dpkgopt='path-exclude=/usr/share/locale/*'
  --setup-hook='mkdir -p "$1/usr/share/man/man1"' "$suite")
java_home=/usr/lib/jvm/${jre%-jre-headless}-$(dpkg --print-architecture)
key=$(printf '%s\n' "${mmdebstrap_args[@]}" "$mirror" "$java_home" | sha256sum | cut -c1-16)
cache=${KOPF4J_IMAGE_CACHE:-$HOME/.cache/kopf4j/images}/$key
base=$cache/base.tar
image=localhost/kopf4j-base:$key
if [[ -f $base ]]; then
  log "cached: $base"
  loaded=$(podman load --quiet -i "$base") || cannot "podman cannot load an image here"
  loaded=$(sed -n 's/^Loaded image(s)*: *//p; s/^Loaded image: *//p' <<< "$loaded" | head -n1)
  # An archive saved under an earlier name (the image test's own) is the same image: given this name too.
  [[ -z $loaded || $loaded == "$image" ]] || podman tag "$loaded" "$image" || fail "podman tag $loaded $image"
else
  curl -fsS --connect-timeout 5 --max-time 20 -o /dev/null "$mirror/dists/$suite/Release" \
    || cannot "Debian's archive is out of reach ($mirror/dists/$suite/Release)"
  log "building $jre from Debian $suite ($mirror), once; cached in $cache"
  mkdir -p "$cache"
  rootfs=$(mktemp "$cache/rootfs.XXXXXX.tar")
  trap 'rm -f "$rootfs" "$base.partial"' EXIT
  mmdebstrap --quiet "${mmdebstrap_args[@]}" "$rootfs" "$mirror" || fail "mmdebstrap could not build the root filesystem"
  podman import --quiet --change "ENV JAVA_HOME=$java_home" "$rootfs" "$image" > /dev/null || fail "podman import"
  podman save --quiet --format docker-archive -o "$base.partial" "$image" || fail "podman save"
  mv "$base.partial" "$base"
fi
echo "$base"
