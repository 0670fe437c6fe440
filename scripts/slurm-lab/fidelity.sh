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

# Limits in whole minutes ("-t HH:MM:SS" -> "-t M", rounded up). A node count without an
# upper end ("-N 4-", which sbatch rejects) means exactly that many nodes in hetsched's
# model, so it becomes "-N 4" for both sides.
prepare_jobs() {
  awk '/^#/ {print; next} {
  for (i = 1; i <= NF; ++i) {
    if ($i == "-t") { split($(i+1), p, ":"); s = p[1] * 3600 + p[2] * 60 + p[3]; $(i+1) = int((s + 59) / 60) }
    if ($i == "-N" && $(i+1) ~ /-$/) sub(/-$/, "", $(i+1))
  }
  print
}' "$JOBS" > "$OUT/jobs.txt"
}

submit_all() {
  local id submit runtime
  while read -r id submit runtime rest; do
    [[ "$id" == \#* || -z "$id" ]] && continue
    local opts=() word
    for word in $rest; do
      case "$word" in user=*|partition=*|moldable=*) ;; name=*) opts+=(-J "${word#name=}") ;; *) opts+=("$word") ;; esac
    done
    timeout 10 sbatch -Q -o /dev/null "${opts[@]}" --wrap "sleep $runtime" >/dev/null
  done < "$OUT/jobs.txt"
}

wait_until_done() {
  while [[ -n "$(timeout 10 squeue -h -o %i)" ]]; do sleep 5; done
  sleep 2
}

# jobcomp lines -> real.csv: id,start,end,nodes in seconds after the first submission
# ("+" separates node ranges inside a node list).
collect_real() {
  awk '{
    for (i = 1; i <= NF; ++i) { split($i, kv, "="); f[kv[1]] = substr($i, length(kv[1]) + 2) }
    for (k in t) delete t[k]
    split("SubmitTime StartTime EndTime", keys, " ")
    for (k = 1; k <= 3; ++k) { cmd = "date -d " f[keys[k]] " +%s"; cmd | getline t[k]; close(cmd) }
    nodes = f["NodeList"]; gsub(/,/, "+", nodes)
    print f["JobId"] "," t[1] "," t[2] "," t[3] "," nodes
  }' "$(dirname "$SLURM_CONF")/jobcomp.txt" | sort -t, -k1,1n > "$OUT/real_raw.csv"
  awk -F, 'NR == FNR { if (t0 == "" || $2 < t0) t0 = $2; next }
    FNR == 1 { print "id,start,end,nodes" }
    { print $1 "," $3 - t0 "," $4 - t0 "," $5 }' "$OUT/real_raw.csv" "$OUT/real_raw.csv" > "$OUT/real.csv"
}

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
