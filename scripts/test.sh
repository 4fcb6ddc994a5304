#!/usr/bin/env bash
# Runs all tests: unit tests, and integration tests against a real local kube-apiserver + etcd.
# Finds a JDK 21+, provisions the control-plane binaries once (see scripts/envtest.sh), then runs
# `mvn verify`. Extra arguments go to Maven, e.g. scripts/test.sh -pl examples -am
source "$(dirname "$(readlink -f "$0")")/usage.sh" "$@"
set -euo pipefail
root=$(cd "$(dirname "$(readlink -f "$0")")/.." && pwd)
source "$root/scripts/java-home.sh"
echo "JDK: $JAVA_HOME ($(kopf4j_java_version "$JAVA_HOME"))"
KUBEBUILDER_ASSETS=$("$root/scripts/envtest.sh")
export KUBEBUILDER_ASSETS
echo "Control plane binaries: $KUBEBUILDER_ASSETS ($("$KUBEBUILDER_ASSETS/kube-apiserver" --version))"
mvn -B -ntp -f "$root/pom.xml" clean verify "$@"
