#!/usr/bin/env bash
# PIT over the groups of packages named (all of them without an argument), one Maven run, niced,
# then the score per package and every mutation no test detected, checked against the list of
# equivalent mutations (docs/mutation-equivalents.md).
#
#   scripts/pit/run.sh                  every group: hours on two cores
#   scripts/pit/run.sh cli explain      the named groups only
#   KUIK_PIT_THREADS=3 ...              minions per group (default 2)
#   KUIK_PIT_TESTS='io.kuik.kube.*Test' ...  only these tests for the edge's groups: a lower bound
#
# Groups: core (model, routing, syncer, ports), cli, explain, kube (kube alone), kube-syncer,
# kube-webhook, webhook, registry, selftest (the controller); plan (the simulator's plan and cli),
# admission (the simulator's admission policy). Reports: */target/pit-reports/<group>/.
set -euo pipefail
cd "$(dirname "$0")/../.."
controller=(core cli explain kube kube-syncer kube-webhook webhook registry selftest)
simulator=(plan admission)
[ $# -eq 0 ] && set -- "${controller[@]}" "${simulator[@]}"

flags=()
module=controller
for group in "${controller[@]}" "${simulator[@]}"; do
  skip=true
  for wanted in "$@"; do [ "$wanted" = "$group" ] && skip=false; done
  flags+=("-Dkuik.pit.skip.$group=$skip")
done
for wanted in "$@"; do
  case " ${controller[*]} ${simulator[*]} " in
    *" $wanted "*) ;;
    *) echo "unknown group: $wanted" >&2; exit 2 ;;
  esac
  for group in "${simulator[@]}"; do [ "$wanted" = "$group" ] && module=simulator; done
done

for group in "$@"; do
  rm -rf controller/target/pit-reports/"$group" simulator/target/pit-reports/"$group"
done
started=$(date +%s)
# Measured with a threshold of 0 (KUIK_PIT_THRESHOLD=85 fails a group under 85 %), so that every
# group is measured whatever the score of the groups before it.
nice -n 10 ./mvnw -B -ntp -Pmutation -pl "$module" -am verify -Dspotless.check.skip=true \
  -Dkuik.pit.threshold="${KUIK_PIT_THRESHOLD:-0}" -Dkuik.pit.threads="${KUIK_PIT_THREADS:-2}" \
  -Dkuik.pit.tests="${KUIK_PIT_TESTS:-io.kuik.*Test}" \
  "${flags[@]}" || status=$?
echo "PIT ran $(( ($(date +%s) - started) / 60 )) minutes for: $*"

reports=()
for group in "$@"; do
  for dir in controller simulator; do
    xml=$dir/target/pit-reports/$group/mutations.xml
    [ -f "$xml" ] && reports+=("$xml")
  done
done
equivalents=()
[ -f docs/mutation-equivalents.md ] && equivalents=(--equivalents docs/mutation-equivalents.md)
[ ${#reports[@]} -gt 0 ] && java scripts/pit/PitTable.java "${equivalents[@]}" "${reports[@]}"
exit "${status:-0}"
