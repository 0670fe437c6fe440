#!/usr/bin/env bash
# The short version of the fidelity suite (workload `short`: 47 jobs of mix V arriving over
# about 4 minutes on 16 lab nodes, about 7 minutes in all) on a lab of its own; fails when
# the Slurm model drifts past issue 17's targets (aggregates within 2 %, >= 90 % of jobs on
# the same node set, >= 80 % of starts within 5 s; docs/slurm-lab.md). $1: output directory.
# HETSCHED_LAB and LAB_PORT_BASE choose the lab (run.sh sets them).
set -uo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
SUITE=$ROOT/scripts/slurm-lab/fidelity-suite.sh
OUT=${1:?output directory}
rm -rf "$OUT"
bash "$SUITE" --fg "$OUT" short || { echo "fidelity: the short workload did not run through" >&2; exit 1; }
cat "$OUT/short/report.md"
if bash "$SUITE" --check "$OUT/short" > /dev/null; then
  echo "fidelity: the model meets the targets on the short workload"
else
  echo "fidelity: the model misses a target on the short workload:" >&2
  grep ',no$' "$OUT/short/run/targets.csv" >&2
  exit 1
fi
