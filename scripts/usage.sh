#!/usr/bin/env bash
# Sourced first by every script of the project with the script's arguments:
#   source "$(dirname "$(readlink -f "$0")")/../scripts/usage.sh" "$@"
# With -h or --help among them, prints the calling script's header comment (what it does, its
# arguments and settings) and exits 0 before the script does anything.
for kopf4j_usage_arg in "$@"; do
  if [[ $kopf4j_usage_arg == -h || $kopf4j_usage_arg == --help ]]; then
    kopf4j_usage_script=${BASH_SOURCE[1]:-$0}
    echo "${kopf4j_usage_script#"$PWD/"}:"
    # The header: the comment lines after the shebang, up to the first line that is not one.
    awk 'NR == 1 && /^#!/ { next } /^#/ { sub(/^# ?/, "  "); print; next } { exit }' "$kopf4j_usage_script"
    exit 0
  fi
done
unset kopf4j_usage_arg
