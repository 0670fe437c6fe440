#!/usr/bin/env bash
# Replays a job file on a freshly started real Slurm lab (lab.sh) with sleep jobs and on
# hetsched's Slurm model (backfill, the lab's own slurm.conf), then compares per-job start
# times and nodes.
#   fidelity.sh JOBFILE OUTDIR     run both sides, then compare
#   fidelity.sh --collect OUTDIR   only collect, model and compare (the lab's jobs of an
#                                  earlier run of OUTDIR/jobs.txt have finished)
# Time limits are rounded up to whole minutes first (Slurm keeps limits in minutes), and
# that rounded file is what both sides run. All jobs are submitted at once, in file order,
# so Slurm's job ids equal the file's ids on a freshly started lab.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
HETSCHED=${HETSCHED:-$ROOT/build/hetsched}
source <("$HERE/lab.sh" env)

source "$HERE/replay-lib.sh"

run_model() {
  "$HETSCHED" simulate --cluster "$SLURM_CONF" --workload "$OUT/jobs.txt" --scheduler backfill \
    --out "$OUT/model" >/dev/null
}

compare() {
  # Per job: start-time difference and whether both put it on the same nodes.
  awk -F, '
    function expand(list,   out, parts, i, m, pre, body, r, k, lo, hi, n) {
      out = ""
      if (match(list, /\[.*\]/)) {
        pre = substr(list, 1, RSTART - 1); body = substr(list, RSTART + 1, RLENGTH - 2)
        n = split(body, parts, "+")
        for (i = 1; i <= n; ++i) {
          if (split(parts[i], r, "-") == 2) { lo = r[1]; hi = r[2] } else { lo = hi = parts[i] }
          for (k = lo; k <= hi; ++k) out = out " " pre k
        }
        return out
      }
      return " " list
    }
    function model_nodes(alloc,   parts, i, n, name, out) {
      n = split(alloc, parts, ";"); out = ""
      for (i = 1; i <= n; ++i) { split(parts[i], name, ":"); out = out " " name[1] }
      return out
    }
    NR == FNR { if (FNR > 1) { start[$1] = $2; nodes[$1] = expand($4) } next }
    FNR > 1 {
      d = $6 - start[$1]; if (d < 0) d = -d
      sum += d; n++; if (d <= 5) within5++; if (d <= 30) within30++; if (d > worst) worst = d
      if (model_nodes($14) == nodes[$1]) same++
    }
    END {
      printf "jobs %d  mean |start difference| %.1f s  within 5 s: %d  within 30 s: %d  worst %d s  same nodes: %d\n",
             n, sum / n, within5, within30, worst, same
    }' "$OUT/real.csv" "$OUT/model/jobs.csv" | tee "$OUT/summary.txt"
}

if [[ "${1:-}" == "--collect" ]]; then
  OUT=$2
else
  JOBS=$1
  OUT=$2
  mkdir -p "$OUT"
  prepare_jobs
  submit_all
  wait_until_done
fi
collect_real
run_model
compare
