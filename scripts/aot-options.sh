#!/usr/bin/env bash
# Prints the JVM options of kopf4j's AOT cache, one per line (JDK 25+: JEP 483, 514, 515; nothing on
# older JDKs), for a kopf4j command about to run:
#   scripts/aot-options.sh JAVA_HOME PID COMMAND CLASSPATH [JVM_OPTION...]
# PID is the process that will become the JVM (the launcher's own, as it execs java), COMMAND the
# kopf4j command's first argument, the JVM options those it will run with (the cache is theirs only).
# Like the cache of compiled .java handlers, the AOT cache is kept per key in the cache directory
# ($XDG_CACHE_HOME/kopf4j/aot, else ~/.cache/kopf4j/aot), the key a hash of the java binary, its
# release, the classpath (each jar's and its lib/ jars' size and mtime) and the JVM options:
#   1. no cache yet: a `run` records which classes it loads (-XX:AOTMode=record), written when its
#      JVM exits (Ctrl-C, SIGTERM, an error; not after SIGKILL) to KEY.PID.aotconf; once its operator
#      serves, the run marks the recording so (KEY.PID.aotconf.served, the system property
#      kopf4j.aot.recording names the path), unless it compiled its handlers (it loaded javac then,
#      which later starts, reading the compiled classes from their cache, never need);
#   2. the next start of any command makes the cache from a marked recording (-XX:AOTMode=create,
#      3-4 s, once) and uses it, as does every start after it (-XX:AOTCache=KEY.aot: the login 0.3 s faster, up to
#      0.7 s less to ready, ~5 MiB more RSS; docs/performance.md).
# A cache the JVM cannot use is skipped silently (-Xlog:aot=off), as are JVM options that exclude it
# (-Xshare, a CDS archive, AOT options of one's own), and a classpath with a non-empty directory (the
# JVM refuses a cache for it). If the JVM cannot make the cache, KEY.create.log says why and the key
# is not recorded again (KEY.failed). The newest 3 caches are kept (~40-70 MB each).
# During the recording run the JVM's own messages on stdout are off (its line " AOTConfiguration
# recorded: ..." at exit, and thread dumps on SIGQUIT: `jcmd PID Thread.print` still prints them).
# KOPF4J_AOT=off: none of this.
source "$(dirname "$(readlink -f "$0")")/usage.sh" "$@"
set -uo pipefail
java_home=${1:?usage: scripts/aot-options.sh JAVA_HOME PID COMMAND CLASSPATH [JVM_OPTION...]}
pid=${2:?} command=${3-} classpath=${4:?}
shift 4
jvm_options=("$@")
[[ ${KOPF4J_AOT:-on} != off ]] || exit 0
version=$(awk -F'"' '/^JAVA_VERSION=/{print $2}' "$java_home/release" 2>/dev/null | cut -d. -f1)
(( ${version:-0} >= 25 )) || exit 0
for option in ${jvm_options[@]+"${jvm_options[@]}"}; do
  case $option in
    -Xshare:* | -XX:SharedArchiveFile=* | -XX:*AOT* | -XX:*DumpLoadedClassList* | -XX:SharedClassListFile=*) exit 0 ;;
  esac
done
# The JVM caches no classes of directories, and refuses a cache for a classpath with a non-empty one.
while IFS= read -r -d: entry; do
  [[ -d $entry && -n $(ls -A "$entry" 2>/dev/null) ]] && exit 0
done <<< "$classpath:"
if [[ ${XDG_CACHE_HOME:-} == /* ]]; then dir=$XDG_CACHE_HOME/kopf4j/aot; else dir=$HOME/.cache/kopf4j/aot; fi
mkdir -p "$dir" 2>/dev/null && [[ -w $dir ]] || exit 0

# What a cache depends on: the JVM, the classes on the classpath (a jar's manifest may name more in lib/), the options.
classpath_files() {
  local entry
  local IFS=:
  for entry in $classpath; do
    printf '%s\n' "$entry"
    [[ $entry == *.jar && -d $(dirname "$entry")/lib ]] && printf '%s\n' "$(dirname "$entry")"/lib/*.jar
  done
}
key=$({
  readlink -f "$java_home/bin/java"
  cat "$java_home/release"
  printf '%s\n' "$classpath"
  classpath_files | xargs -d '\n' stat -L -c '%n %s %Y' 2>/dev/null
  printf '%s\n' ${jvm_options[@]+"${jvm_options[@]}"}
} | sha256sum | cut -c1-16)
cache=$dir/$key.aot

use() {
  touch "$cache" 2>/dev/null   # the pruning below keeps the most recently used
  ls -t "$dir"/*.aot 2>/dev/null | tail -n +4 | xargs -r -d '\n' rm -f
  find "$dir" \( -name '*.failed' -o -name '*.create.log' -o -name '*.served' \) -mmin +1440 -delete 2>/dev/null
  # The cache mapped where it was made (ArchiveRelocationMode=0, JDK 19's default): relocated to a
  # random address, as JDK 20+ does by default, every page of it is rewritten into the process's own
  # memory; mapped so, its pages stay the file's (shared by the operators of one machine, dropped
  # under memory pressure). The RSS measured the same either way (docs/performance.md, 2026-11-30:
  # the 60 MB measured before compared two caches of different runs, not the two modes).
  printf '%s\n' "-XX:AOTCache=$cache" -Xlog:aot=off -Xlog:cds=off -XX:+UnlockDiagnosticVMOptions -XX:ArchiveRelocationMode=0
  exit 0
}
[[ -s $cache ]] && use
# The JVM could not make a cache of this key's recording (KEY.create.log says why): not again.
[[ -e $dir/$key.failed ]] && exit 0
# A recording of this key whose JVM has exited: make the cache of it (in a file of this process's
# own, then renamed, so that starts at the same time never see half a cache) if its operator served.
# One that did not (a start that failed, a typo in the handlers say) holds a fraction of an operator's classes, and its
# cache would slow every later start: it is dropped, and the next `run` records again.
for recording in "$dir/$key".*.aotconf; do
  [[ -e $recording ]] || continue
  recorder=${recording%.aotconf}
  recorder=${recorder##*.}
  kill -0 "$recorder" 2>/dev/null && continue
  if [[ -s $recording && -e $recording.served && ! -s $cache ]]; then
    made=$dir/$key.$pid.aot.tmp
    if "$java_home/bin/java" ${jvm_options[@]+"${jvm_options[@]}"} -XX:AOTMode=create -XX:AOTConfiguration="$recording" \
        -XX:AOTCache="$made" -cp "$classpath" > "$dir/$key.create.log" 2>&1 && [[ -s $made ]]; then
      mv -f "$made" "$cache"
    else
      touch "$dir/$key.failed"
    fi
    rm -f "$made"
  fi
  rm -f "$recording" "$recording.served"
done
[[ -s $cache ]] && use
# Recordings of other keys a day old whose JVM has exited (their jars changed since, most likely).
while IFS= read -r recording; do
  recorder=${recording%.aotconf}
  kill -0 "${recorder##*.}" 2>/dev/null || rm -f "$recording" "$recording.served"
done < <(find "$dir" -name '*.aotconf' -mmin +1440 2>/dev/null)
# Only an operator's run is worth recording: --help or `crd` would record a few classes and no more.
[[ $command == run ]] || exit 0
printf '%s\n' -XX:AOTMode=record "-XX:AOTConfiguration=$dir/$key.$pid.aotconf" "-Dkopf4j.aot.recording=$dir/$key.$pid.aotconf" \
  -Xlog:aot=off -Xlog:cds=off \
  -XX:+UnlockDiagnosticVMOptions -XX:-DisplayVMOutput
