#!/usr/bin/env bash
# The short version of the fidelity suite (workload `short`: 47 jobs of mix V arriving over
# about 4 minutes on 16 lab nodes, about 7 minutes in all) on a lab of its own. Its report holds
# issue 17's targets (aggregates within 2 %, >= 90 % of jobs on the same node set, >= 80 % of
# starts within 5 s). With whole seconds the model did not meet them reliably: the same
# workload gave 47/47, 38/47, 30/47 and (with a second lab busy beside it) 16/47 same node
# sets, 62-100 % of starts within 5 s and mean waits up to 9.3 % apart in four runs, because
# which of two equal nodes a pass takes and whether a pass sees an end depend on sub-second
# timing. The model now replays that timing from the run (docs/slurm-model.md, "Sub-second
# timing"; the first live run with it: every target met, 47/47), but one run of a real
# controller on a shared machine is still noisy, so this test stays a drift guard that a
# broken model or harness fails (the harness that submitted everything at t = 0 gave 8 % of
# starts within 5 s) and run-to-run noise does not. The three live runs with sub-second
# timing (2026-11-25/26) gave 45-47 of 47 node sets, 46-47 starts within 5 s and aggregates within 4.1 %
# (one late job moves the makespan), so: aggregates within 10 %, starts within 5 s >= 75 %,
# the same node set >= 60 % (was 15 / 50 / 25 before those runs).
# $1: output directory.
# HETSCHED_LAB and LAB_PORT_BASE choose the lab (run.sh sets them).
set -uo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
SUITE=$ROOT/scripts/slurm-lab/fidelity-suite.sh
OUT=${1:?output directory}
rm -rf "$OUT"
bash "$SUITE" --fg "$OUT" short || { echo "fidelity: the short workload did not run through" >&2; exit 1; }
cat "$OUT/short/report.md"
# The drift guard (see above): looser than the targets, which the report still shows.
misses=$(awk -F, 'NR > 1 {
    floor = ($1 == "same_node_set_pct") ? 60 : ($1 == "starts_within_5s_pct") ? 75 : -1
    if (floor >= 0) { if ($2 < floor) print $1 " " $2 " < " floor }
    else { r = ($2 < 0) ? -$2 : $2; if (r > 10) print $1 " " $2 " beyond ±10" } }' \
  "$OUT/short/run/targets.csv")
if [[ -z "$misses" ]]; then
  echo "fidelity: no drift on the short workload ($(grep same_node "$OUT/short/run/targets.csv"))"
else
  echo "fidelity: the model drifted on the short workload:" >&2
  echo "$misses" >&2
  exit 1
fi
