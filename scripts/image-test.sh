#!/usr/bin/env bash
# The operator's container image, built without Docker and run for real (docs/deploying.md, "A container
# image"): the Jib block of a kopf4j project builds it on a JRE 21 base made from Debian's packages, and
# podman runs it against a local cluster, where it must handle an object and stop cleanly on SIGTERM.
#
#   1. setup: podman and runc from apt where missing; podman's settings for these machines
#      (runc, cgroupfs, no default rlimits) in a containers.conf of the test's own (CONTAINERS_CONF).
#   2. the base: scripts/base-image.sh, a JRE 21 from Debian trixie as a docker archive for Jib's tar://
#      base, cached in ${KOPF4J_IMAGE_CACHE:-~/.cache/kopf4j/images}/<hash of its inputs>/ (first run:
#      about a minute).
#   3. the operator's image: kopf4j installed into ~/.m2 (mvn install), a project made by the guide's
#      `kopf4j init my-operator --group example.com --kind Greeting`, its plugins and their own
#      dependencies fetched (online, as sample-project.sh does), then mvn package jib:buildTar
#      -Djib.from.image=tar://<the base>.
#   4. the image's contract: user 65532:65532, the entrypoint with the launcher's JVM options for Java 21
#      (scripts/jvm-options.sh), ports 8080 and 8081; its layers and their sizes are printed.
#   5. a change of the handlers only: a second build differs from the first in the "app classes" layer alone.
#   6. a run: a LocalCluster (scripts/image-test/ClusterForScript.java) with the generated CRD; the image
#      under podman --network host on a read-only root filesystem, the cluster's kubeconfig mounted: as
#      user 65532, /readyz and /metrics answering on their ports, an object created and handled
#      (status.create.message); then podman stop: exit code 0 (SIGTERM, not the SIGKILL after the grace
#      period), Kopf's stop message, JSON log lines only and no error among them.
# Everything it made (containers, images, the cluster) is removed at exit; the cached base stays.
# Where it cannot run (not root, no apt for missing tools, Debian's archive out of reach, podman unable to
# run a container here) it says why and exits 0. Extra arguments go to the image builds (e.g. -o); the
# install of kopf4j and the new project's plugins are fetched online.
# Knobs: KOPF4J_INSTALLED=1 (kopf4j of this checkout is in ~/.m2 already: no install), KOPF4J_IMAGE_CACHE, KOPF4J_IMAGE_DEBIAN_SUITE (trixie), KOPF4J_IMAGE_DEBIAN_MIRROR
# (the machine's apt mirror), KOPF4J_IMAGE_JRE_PACKAGE (openjdk-21-jre-headless).
source "$(dirname "$(readlink -f "$0")")/usage.sh" "$@"
set -euo pipefail
root=$(cd "$(dirname "$(readlink -f "$0")")/.." && pwd)
log() { printf '[image-test %s] %s\n' "$(date +%H:%M:%S)" "$*" >&2; }
skip() { log "SKIPPED: $*"; exit 0; }
fail() { log "FAILED: $*"; exit 1; }
started=$SECONDS

# ---------------------------------------------------------------- 1. setup
[[ $(id -u) -eq 0 ]] || skip "podman runs containers on these machines as root only; run this script as root"
missing=()
command -v podman > /dev/null || missing+=(podman)
command -v runc > /dev/null || missing+=(runc)
if ((${#missing[@]})); then
  command -v apt-get > /dev/null || skip "${missing[*]} missing and no apt-get to install them"
  log "installing ${missing[*]} (apt)"
  if ! { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}"; } > /dev/null; then
    skip "cannot install ${missing[*]} with apt"
  fi
fi
work=$(mktemp -d)
export CONTAINERS_CONF=$work/containers.conf
cat > "$CONTAINERS_CONF" <<'EOF'
# crun and the default rlimits are refused on these machines; runc and cgroupfs work.
[containers]
default_ulimits = []
[engine]
runtime = "runc"
cgroup_manager = "cgroupfs"
EOF
tag=kopf4j-image-test-$$
base_image=""
container=""
cluster_pid=""
cleanup() {
  [[ -z $container ]] || podman rm -f "$container" > /dev/null 2>&1 || true
  podman rmi -f "localhost/$tag:first" "localhost/$tag:second" > /dev/null 2>&1 || true   # the base stays, as its archive
  if [[ -n $cluster_pid ]]; then
    exec {CLUSTER[1]}>&- 2> /dev/null || true   # the end of its input stops the cluster
    wait "$cluster_pid" 2> /dev/null || true
  fi
  rm -rf "$work"
}
trap cleanup EXIT

# ---------------------------------------------------------------- 2. the base image
# scripts/base-image.sh: built once and cached; it loads the image into podman's storage.
status=0
base=$("$root/scripts/base-image.sh") || status=$?
((status == 0)) || { ((status == 3)) && skip "scripts/base-image.sh cannot build the base here (its reason above)"; fail "scripts/base-image.sh"; }
base_image=localhost/kopf4j-base:$(basename "$(dirname "$base")")
if ! probe=$(podman run --rm --network host "$base_image" java -version 2>&1); then
  skip "podman cannot run a container here: $probe"
fi
log "the base runs: $(head -n1 <<< "$probe")"

# ---------------------------------------------------------------- 3. the operator's image
source "$root/scripts/java-home.sh"
maven() { # <args>: Maven, quiet; its output only when it fails
  mvn -B -ntp -q "$@" > "$work/maven.log" 2>&1 || { cat "$work/maven.log" >&2; fail "mvn $*"; }
}
if [[ ${KOPF4J_INSTALLED:-} == 1 && -f $root/kopf4j-cli/target/kopf4j.jar ]]; then
  log "kopf4j is installed in the local Maven repository already (KOPF4J_INSTALLED=1: CI's sample project did it)"
else
  log "installing kopf4j into the local Maven repository (mvn install)"
  maven -f "$root/pom.xml" install -DskipTests -pl kopf4j-bom,kopf4j-cli -am   # online: the install plugin, on a fresh machine
fi
(cd "$work" && "$JAVA_HOME/bin/java" -jar "$root/kopf4j-cli/target/kopf4j.jar" init my-operator --group example.com --kind Greeting > /dev/null)
project=$work/my-operator
handlers=com.example.operator.GreetingOperator
maven -f "$project/pom.xml" dependency:go-offline
# go-offline fetches the plugins but not the dependencies a POM adds to a plugin (Jib's layer filter
# extension): a Jib goal run online once, skipped, builds Jib's plugin class path and so fetches them.
maven -f "$project/pom.xml" jib:buildTar -Djib.skip=true
build() { # <tag>: builds the project's image into target/<tag>.tar
  maven -f "$project/pom.xml" "${@:2}" package -DskipTests jib:buildTar "-Djib.from.image=tar://$base" \
    "-Djib.to.image=localhost/$tag:$1" "-Djib.outputPaths.tar=target/$1.tar"
  podman load --quiet -i "$project/target/$1.tar" > /dev/null
}
log "building the operator's image (mvn package jib:buildTar)"
build first "$@"
image=localhost/$tag:first

# ---------------------------------------------------------------- 4. the image's contract
user=$(podman image inspect --format '{{.Config.User}}' "$image")
[[ $user == 65532:65532 ]] || fail "the image's user is '$user', not 65532:65532"
release21=$work/java21
# 21.0.8, as InitCommandTest: the bases' JREs are past 21.0.4 (Debian trixie's 21.0.13), where the
# launcher adds -XX:TrimNativeHeapInterval.
mkdir -p "$release21" && echo 'JAVA_VERSION="21.0.8"' > "$release21/release"
expected=(java $(KOPF4J_JAVA_OPTS='' "$root/scripts/jvm-options.sh" "$release21") -cp @/app/jib-classpath-file io.kopf4j.cli.Main)
entrypoint=$(podman image inspect --format '{{range .Config.Entrypoint}}{{println .}}{{end}}' "$image" | sed '/^$/d')
[[ $entrypoint == "$(printf '%s\n' "${expected[@]}")" ]] \
  || fail "the entrypoint is not the launcher's (scripts/jvm-options.sh for Java 21): $(tr '\n' ' ' <<< "$entrypoint")"
ports=$(podman image inspect --format '{{range $port, $_ := .Config.ExposedPorts}}{{$port}} {{end}}' "$image")
[[ $ports == "8080/tcp 8081/tcp " ]] || fail "the exposed ports are '$ports', not 8080 (metrics) and 8081 (probes)"
log "user $user; entrypoint: $(tr '\n' ' ' <<< "$entrypoint")"
layers() { # <image>: one line per layer, bottom first: its name (Jib's history comment) and its diff id
  paste -d' ' <(podman image inspect --format '{{range .History}}{{if not .EmptyLayer}}{{println .Comment}}{{end}}{{end}}' "$1" | sed '/^$/d' | tr ' ' '_') \
    <(podman image inspect --format '{{range .RootFS.Layers}}{{println .}}{{end}}' "$1" | sed '/^$/d')
}
blob_sizes() { # <Jib's image tar>: the size of each compressed layer blob, bottom first (what a registry stores)
  local blob
  for blob in $(tar -xOf "$1" manifest.json | grep -o '[0-9a-f]\{64\}\.tar\.gz'); do
    tar -tvf "$1" "$blob" | awk '{printf "%.1f kB\n", $3 / 1000}'
  done
}
base_layers=$(podman image inspect --format '{{len .RootFS.Layers}}' "$base_image")
jib_layers=$(layers "$image" | tail -n +$((base_layers + 1)) | awk '{print $1}' | tr '\n' ' ')
[[ $jib_layers == "dependencies jvm_arg_files kopf4j app_resources app_classes " ]] \
  || fail "the layers on the base are '$jib_layers', not dependencies, jvm arg files, kopf4j, app resources, app classes"
log "the image's layers, bottom first: unpacked size (podman), compressed size (the image's blob), name"
paste <(podman history --format '{{.Size}}' "$image" | tac) <(blob_sizes "$project/target/first.tar") \
  <(podman history --format '{{.Comment}}' "$image" | tac) | sed 's/^/    /' >&2

# ---------------------------------------------------------------- 5. a change of the handlers only
operator_java=$project/src/main/java/com/example/operator/GreetingOperator.java
sed -i 's/"created with "/"made with "/' "$operator_java"
grep -qF '"made with "' "$operator_java" || fail "$operator_java has no \"created with \" to change"
log "building again after a change of the handlers only"
build second "$@"
changed=$(diff <(layers "$image") <(layers "localhost/$tag:second") | awk '/^>/ {print $2}' || true)
[[ $changed == app_classes ]] || fail "a change of the handlers changed the layers '$(echo $changed)', not 'app classes' alone"
log "only the 'app classes' layer differs"

# ---------------------------------------------------------------- 6. a run against a local cluster
export KOPF4J_ENVTEST_DOWNLOAD=${KOPF4J_ENVTEST_DOWNLOAD:-never}
coproc CLUSTER { exec "$JAVA_HOME/bin/java" -cp "$root/kopf4j-cli/target/kopf4j.jar" \
  "$root/scripts/image-test/ClusterForScript.java" "$project/target/classes/META-INF/fabric8/greetings.example.com-v1.yml" \
  2> "$work/cluster.log"; }
cluster_pid=$CLUSTER_PID
read -r -t 300 _ kubeconfig <&"${CLUSTER[0]}" || { cat "$work/cluster.log" >&2; fail "the local cluster did not start"; }
read -r -t 5 _ kubectl <&"${CLUSTER[0]}"
install -m 0644 "$kubeconfig" "$work/kubeconfig"   # readable by the container's user
free_port() { local port; while port=$((20000 + RANDOM % 20000)); ss -Htln "sport = :$port" | grep -q .; do :; done; echo "$port"; }
probes=$(free_port) metrics=$(free_port)
container=$tag
# As the generated Deployment runs it: a read-only root with a tmpfs at /tmp (its emptyDir), no capabilities.
podman run -d --name "$container" --network host --read-only --read-only-tmpfs=false --tmpfs /tmp --cap-drop ALL \
  --security-opt no-new-privileges -v "$work/kubeconfig:/etc/kopf4j/kubeconfig:ro" "$image" \
  run --all-namespaces --kubeconfig=/etc/kopf4j/kubeconfig --health-probe-bind-address=:"$probes" \
  --metrics-bind-address=:"$metrics" --log-format=json "$handlers" > /dev/null
container_log() { podman logs "$container" 2>&1 | sed 's/^/    /' >&2; }
for ((i = 0; i < 600; i++)); do
  curl -fs -o /dev/null "http://127.0.0.1:$probes/readyz" && break
  [[ $(podman inspect --format '{{.State.Running}}' "$container") == true ]] || { container_log; fail "the operator exited"; }
  sleep 0.1
done
curl -fs -o /dev/null "http://127.0.0.1:$probes/readyz" || { container_log; fail "/readyz did not answer 200 on the probes port"; }
curl -fs "http://127.0.0.1:$metrics/metrics" | grep -q . || { container_log; fail "/metrics did not answer on the metrics port"; }
uid=$(podman top "$container" user | tail -n1 | tr -d ' ')
[[ $uid == 65532 ]] || fail "the operator runs as '$uid', not 65532"
"$kubectl" --kubeconfig "$kubeconfig" apply -f - > /dev/null <<'EOF'
apiVersion: example.com/v1
kind: Greeting
metadata: {name: greeting-1, namespace: default}
spec: {message: hello}
EOF
for ((i = 0; i < 600; i++)); do
  message=$("$kubectl" --kubeconfig "$kubeconfig" get greeting greeting-1 -o jsonpath='{.status.create.message}')
  [[ -n $message ]] && break
  sleep 0.1
done
[[ $message == "created with 1 replica(s): hello" ]] || { container_log; fail "status.create.message is '$message'"; }
log "the operator in the container (user $uid) handled the object: status.create.message = $message"
grace=30
stop_started=$SECONDS
podman stop -t "$grace" "$container" > /dev/null
code=$(podman inspect --format '{{.State.ExitCode}}' "$container")
[[ $code -eq 0 ]] || { container_log; fail "exit code $code after SIGTERM (137: killed after the $grace s grace period)"; }
podman logs "$container" 2>&1 | grep -qF "Signal SIGTERM is received. Operator is stopping." || { container_log; fail "no stop message"; }
stray=$(podman logs "$container" 2>&1 | grep -v '^{' || true)
[[ -z $stray ]] || { container_log; fail "lines other than JSON logs (the JVM's warnings?): $stray"; }
! podman logs "$container" 2>&1 | grep -F '"severity":"error"' >&2 || { container_log; fail "errors logged"; }
log "stopped by SIGTERM in $((SECONDS - stop_started)) s, exit code 0; JSON logs only, no error"
log "passed in $((SECONDS - started)) s"
