#!/usr/bin/env bash
# The hand-made mutants of plausible bugs, one patch each in this folder: applies each in turn,
# runs the tests its header names (Module:, Tests:), prints the tests that failed, and reverts it.
# A mutant that fewer than two tests catch is reported; the script fails if any survives.
#
#   scripts/mutants/run.sh                       every mutant
#   scripts/mutants/run.sh 05-failed-pods-...    the named ones (file names, .patch optional)
#
# Logs and per-mutant results: target/mutants/. Needs a clean work tree for the files it mutates.
set -euo pipefail
cd "$(dirname "$0")/../.."
here=scripts/mutants
out=target/mutants
mkdir -p "$out"

if [ $# -eq 0 ]; then
  patches=("$here"/*.patch)
else
  patches=()
  for name in "$@"; do patches+=("$here/${name%.patch}.patch"); done
fi

applied=""
revert() {
  if [ -n "$applied" ]; then
    git apply -R "$applied"
    applied=""
  fi
}
trap revert EXIT INT TERM

header() { sed -n "s/^$1: //p" "$2" | head -n 1; }

survivors=0
summary="$out/summary.txt"
: >"$summary"
for patch in "${patches[@]}"; do
  name=$(basename "$patch" .patch)
  module=$(header Module "$patch")
  tests=$(header Tests "$patch")
  git apply --check "$patch"
  git apply "$patch"
  applied="$patch"
  rm -rf controller/target/surefire-reports simulator/target/surefire-reports \
    features/target/surefire-reports
  cmd=(./mvnw -B -ntp -pl "$module" -am verify "-Dtest=$tests"
    -Dsurefire.failIfNoSpecifiedTests=false -Dspotless.check.skip=true
    -Dmaven.test.failure.ignore=true)
  echo "== $name: $(header Mutant "$patch")"
  echo "   nice -n 10 ${cmd[*]}"
  build=0
  nice -n 10 "${cmd[@]}" >"$out/$name.log" 2>&1 || build=$?
  revert
  if [ "$build" -ne 0 ]; then
    echo "   BUILD FAILED (see $out/$name.log)" | tee -a "$summary"
    survivors=$((survivors + 1))
    continue
  fi
  java "$here/FailedTests.java" controller/target/surefire-reports \
    simulator/target/surefire-reports features/target/surefire-reports >"$out/$name.txt"
  sed 's/^/   /' "$out/$name.txt"
  failed=$(tail -n 1 "$out/$name.txt" | cut -d' ' -f1)
  verdict="caught by $failed tests"
  if [ "$failed" -eq 0 ]; then
    verdict="SURVIVED"
    survivors=$((survivors + 1))
  elif [ "$failed" -eq 1 ]; then
    verdict="caught by ONE test only"
  fi
  echo "$name: $verdict" | tee -a "$summary"
done
echo "-- summary (also in $summary)"
cat "$summary"
[ "$survivors" -eq 0 ]
