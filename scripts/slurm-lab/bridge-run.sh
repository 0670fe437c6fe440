#!/usr/bin/env bash
# Runs a job file on the real Slurm lab twice from a fresh start: once scheduled by Slurm
# itself (sched/backfill + cons_tres, as configured by lab.sh) and once by `hetsched bridge`
# with a hetsched scheduler (jobs submitted held, started by the bridge on the nodes its
# scheduler chose). Prints makespan, mean wait and how many jobs ran on the chosen nodes.
#   bridge-run.sh JOBFILE OUTDIR [SCHEDULER] [NODES CORES GPUS]
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
HETSCHED=${HETSCHED:-$ROOT/build/hetsched}
JOBS_IN=$1
OUT_ROOT=$2
SCHEDULER=${3:-aucsched2}
SHAPE=("${4:-8}" "${5:-8}" "${6:-2}")
source <("$HERE/lab.sh" env)
source "$HERE/replay-lib.sh"

summary() {  # real_raw.csv: id,submit,start,end,nodes (epoch seconds)
  awk -F, -v label="$1" '
    { if (t0 == "" || $2 < t0) t0 = $2; if ($4 > last) last = $4; wait += $3 - $2; n++ }
    END { printf "%-22s jobs %d  makespan %d s  mean wait %.1f s\n", label, n, last - t0, wait / n }' \
    "$OUT/real_raw.csv" | tee -a "$OUT_ROOT/summary.txt"
}

one_run() {  # $1: backfill | bridge
  OUT=$OUT_ROOT/$1
  JOBS=$JOBS_IN
  mkdir -p "$OUT"
  "$HERE/lab.sh" start "${SHAPE[@]}" >/dev/null
  prepare_jobs
  if [[ "$1" == bridge ]]; then
    SUBMIT_FLAGS=-H submit_all
    "$HETSCHED" bridge --cluster "$SLURM_CONF" --scheduler "$SCHEDULER" --interval 2 \
      --until-idle --log-json "$OUT/cycles.jsonl" > "$OUT/bridge.log"
  else
    # The policy in shadow mode beside Slurm's own backfill: predictions only.
    "$HETSCHED" bridge --cluster "$SLURM_CONF" --scheduler "$SCHEDULER" --interval 2 --shadow \
      --shadow-report "$OUT/shadow-report.md" > "$OUT/shadow.log" 2>&1 &
    local shadow=$!
    SUBMIT_FLAGS= submit_all
  fi
  wait_until_done
  [[ -n "${shadow:-}" ]] && { kill "$shadow"; wait "$shadow" 2>/dev/null; shadow=""; }
  collect_real
  "$HERE/lab.sh" stop >/dev/null
}

mkdir -p "$OUT_ROOT"
: > "$OUT_ROOT/summary.txt"
one_run backfill
OUT=$OUT_ROOT/backfill summary "Slurm backfill"
one_run bridge
OUT=$OUT_ROOT/bridge summary "bridge $SCHEDULER"
# The bridge's choice against where Slurm ran each job.
same=0 asked=0 total=0
while IFS=, read -r id submit start end nodes; do
  total=$((total + 1))
  chosen=$(grep -o "job $id: started on .*" "$OUT_ROOT/bridge/bridge.log" | tail -1 |
           awk '{ for (i = 5; i <= NF; ++i) { split($i, p, ":"); printf "%s%s", (i > 5 ? "," : ""), p[1] } }')
  [[ -z "$chosen" ]] && continue
  asked=$((asked + 1))
  ran=$(scontrol show hostnames "${nodes//+/,}" | paste -sd,)
  [[ "$ran" == "$chosen" ]] && same=$((same + 1))
done < "$OUT_ROOT/bridge/real_raw.csv"
echo "bridge: $asked of $total jobs started by the bridge, $same on exactly the chosen nodes" |
  tee -a "$OUT_ROOT/summary.txt"
