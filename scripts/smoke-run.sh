#!/usr/bin/env bash
# Runs the README's first command end to end, as a newcomer would, and checks what they would see:
#   ./kopf4j run --local-cluster --crd examples/crd.yaml examples/01-minimal/Example.java
#   (then the printed kubectl apply -f examples/obj.yaml), the log line, status.create.message,
#   Ctrl-C (SIGINT to its whole process group, as a terminal sends it) ends it with exit code 0 and
#   no ERROR, and no etcd or kube-apiserver process remains.
source "$(dirname "$(readlink -f "$0")")/usage.sh" "$@"
set -euo pipefail
set -m   # the operator gets its own process group, so SIGINT reaches it as Ctrl-C would
root=$(cd "$(dirname "$(readlink -f "$0")")/.." && pwd)
cd "$root"
out=$(mktemp); err=$(mktemp)
fail() { echo "smoke-run: FAILED: $*" >&2; echo "--- stdout" >&2; cat "$out" >&2; echo "--- stderr" >&2; cat "$err" >&2; exit 1; }
wait_for() { # <file> <fixed string> <seconds>
  local i
  for ((i = 0; i < $3 * 10; i++)); do grep -qF -- "$2" "$1" && return 0; sleep 0.1; done
  return 1
}

# env --default-signal=INT: SIGINT handled as a terminal's foreground job has it, also when this script runs in a
# background job of a shell without job control, whose children inherit SIGINT ignored (a JVM then never sees it).
env --default-signal=INT ./kopf4j run --local-cluster --crd examples/crd.yaml examples/01-minimal/Example.java > "$out" 2> "$err" &
pid=$!
wait_for "$out" "Ctrl-C stops the operator" 300 || fail "the local cluster did not start"
state=$(dirname "$(awk '/^Kubeconfig:/{print $2}' "$out")")
apply=$(grep -F " apply -f examples/obj.yaml" "$out" | sed 's/^ *//')
echo "smoke-run: $apply"
$apply
wait_for "$err" "[default/kopf-example-1] Created kopf-example-1 with spec: {" 60 || fail "no 'Created' log line"
wait_for "$err" "[default/kopf-example-1] Handler 'create' succeeded." 10 || fail "no 'succeeded' log line"
kubectl=${apply%% *}
kubeconfig=$(awk '/^Kubeconfig:/{print $2}' "$out")
for ((i = 0; i < 100; i++)); do
  message=$("$kubectl" --kubeconfig "$kubeconfig" get kopfexample kopf-example-1 -o jsonpath='{.status.create.message}')
  [[ -n $message ]] && break; sleep 0.1
done
[[ $message == "Resource kopf-example-1 created successfully" ]] || fail "status.create.message is '$message'"
echo "smoke-run: status.create.message = $message"

kill -INT -- -"$pid"
code=0; wait "$pid" || code=$?
[[ $code -eq 0 ]] || fail "exit code $code after Ctrl-C"
if pgrep -f -- "$state" > /dev/null; then fail "processes remain: $(pgrep -af -- "$state")"; fi
[[ ! -d $state ]] || fail "the cluster's files remain in $state"
grep -F "Signal SIGINT is received. Operator is stopping." "$err" > /dev/null || fail "no stop message"
if grep -F "ERROR" "$err" > /dev/null; then fail "errors after Ctrl-C"; fi
echo "smoke-run: passed (exit code 0 after Ctrl-C; no etcd or kube-apiserver left)"
rm -f "$out" "$err"
