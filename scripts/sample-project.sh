#!/usr/bin/env bash
# Checks docs/getting-started.md on a project of a user's own: installs kopf4j into the local Maven
# repository as the guide says (mvn install), copies the guide's sample project
# (docs/getting-started/my-operator) to a temporary directory outside this checkout, and runs its
# test there against a real kube-apiserver. The files shown in the guide must be those of the sample:
# a shown file that differs fails the check. Extra arguments go to both Maven runs, e.g. -o.
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

echo "Installing kopf4j into the local repository (mvn install) ..."
mvn -B -ntp -q -f "$root/pom.xml" install -DskipTests "$@"

KUBEBUILDER_ASSETS=$("$root/scripts/envtest.sh")
export KUBEBUILDER_ASSETS
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp -RL "$sample" "$work/"   # -L: crd.yaml is a link to examples/crd.yaml
echo "Testing the sample project in $work/my-operator ..."
(cd "$work/my-operator" && mvn -B -ntp test "$@")
