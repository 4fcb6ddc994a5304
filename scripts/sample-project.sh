#!/usr/bin/env bash
# Checks docs/getting-started.md on a project of a user's own: installs kopf4j into the local Maven
# repository as the guide says (mvn install), runs the guide's `kopf4j init` command in a temporary
# directory outside this checkout, and runs `mvn verify` there (its test on a real kube-apiserver).
# The files the guide shows must be those of its sample, docs/getting-started/my-operator, and the
# sample must be what `kopf4j init` makes: a difference fails the check. Extra arguments go to the
# new project's verify, e.g. -o: its dependencies must be what kopf4j's install put into the local
# repository; the install itself, and the new project's plugins (fabric8's CRD generator, Jib),
# which kopf4j's own build does not use, are fetched online (dependency:go-offline).
source "$(dirname "$(readlink -f "$0")")/usage.sh" "$@"
set -euo pipefail
root=$(cd "$(dirname "$(readlink -f "$0")")/.." && pwd)
guide=$root/docs/getting-started.md
sample=$root/docs/getting-started/my-operator
source "$root/scripts/java-home.sh"

# The guide shows files in blocks opened with ```LANG file=PATH (PATH within the sample).
shown=0 block="" path=""
while IFS= read -r line; do
  if [[ -z $path && $line =~ ^\`\`\`[a-z]*\ file=([^ ]+)$ ]]; then
    path=${BASH_REMATCH[1]} block=""
  elif [[ -n $path && $line == '```' ]]; then
    if ! diff -u --label "$sample/$path" --label "$guide (file=$path)" "$sample/$path" <(printf '%s' "$block"); then
      echo "sample-project: $guide shows $path other than $sample/$path has it" >&2; exit 1
    fi
    shown=$((shown + 1)) path=""
  elif [[ -n $path ]]; then
    block+="$line"$'\n'
  fi
done < "$guide"
(( shown > 0 )) || { echo "sample-project: $guide shows no file of the sample" >&2; exit 1; }
echo "The guide shows $shown files of the sample, as they are."
init=$(grep -m1 -E '^kopf4j init ' "$guide") || { echo "sample-project: $guide has no 'kopf4j init' command" >&2; exit 1; }

echo "Installing kopf4j into the local repository (mvn install) ..."
# Online: a fresh machine's repository has no maven-install-plugin yet (the tests' `verify` never installs).
mvn -B -ntp -q -f "$root/pom.xml" install -DskipTests

KUBEBUILDER_ASSETS=$("$root/scripts/envtest.sh")
export KUBEBUILDER_ASSETS
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
read -r -a init_args <<< "${init#kopf4j }"
echo "In $work: $init"
(cd "$work" && "$JAVA_HOME/bin/java" -jar "$root/kopf4j-cli/target/kopf4j.jar" "${init_args[@]}")
project=$work/${init_args[1]}
if ! diff -r -x target "$sample" "$project"; then   # target/: a build of the sample in place, git-ignored
  echo "sample-project: $sample is not what '$init' makes" >&2; exit 1
fi
(cd "$project" && mvn -B -ntp -q dependency:go-offline)
echo "Testing it: mvn verify ..."
(cd "$project" && mvn -B -ntp verify "$@")
