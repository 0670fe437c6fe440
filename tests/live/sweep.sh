#!/usr/bin/env bash
# A sweep through `--executor slurm` on a 16-node lab of its own, against the same sweep run
# locally: 40 `compare` runs (4 schedulers x 10 seeds of ESP on the built-in cluster S). One
# task is cancelled while it runs and must be resubmitted and completed; every per-run output
# must be byte-identical to the local executor's (check.txt without its wall time), and so must
# the printed comparison table. Then on both executors: an 8-cell `matrix` must write the same
# matrix.csv, a quick two-comparison `reproduce` the same results; a restarted sweep must
# submit nothing, a run cancelled with no retries left must fail the sweep naming its log,
# and other options in the same --out and an unknown partition must be clear errors. Prints
# both wall times. $1: output directory. HETSCHED_LAB and LAB_PORT_BASE choose the lab; its
# daemons are stopped by pid on every exit.
set -uo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
LAB_SH=$ROOT/scripts/slurm-lab/lab.sh
HETSCHED=${HETSCHED:-$ROOT/build/hetsched}
OUT=$(mkdir -p "${1:?output directory}" && cd "$1" && pwd)
rm -rf "${OUT:?}"/*
SWEEP=(compare --cluster S --workload esp --scheduler backfill --scheduler backfill-easy
       --scheduler ipsched --scheduler aucsched2 --repeat 10 --seed 1)
sweep_pid=
cleanup() {
  [[ -n "$sweep_pid" ]] && kill "$sweep_pid" 2>/dev/null
  # The lab's own tasks first (their hetsched children would outlive a killed slurmstepd).
  [[ -n "${SLURM_CONF:-}" ]] && timeout 10 scancel -n hetsched-sweep 2>/dev/null && sleep 2
  bash "$LAB_SH" stop >/dev/null 2>&1
}
trap cleanup EXIT
trap 'exit 1' TERM INT
fail() { echo "sweep: $*" >&2; exit 1; }

# Cancels one running array task whose run has not finished (its check.txt is written last)
# while the sweep with pid $1 runs; prints "JOB_TASK (RUN)". $2: the sweep's --out, $3: its
# repetitions, the rest: its schedulers in order (array task i = scheduler i / R, rep i % R).
cancel_one_running() {
  local pid=$1 out=$2 reps=$3 job array task run
  shift 3
  for _ in $(seq 1 600); do
    kill -0 "$pid" 2>/dev/null || return 0
    job=$(squeue -h -n hetsched-sweep -t RUNNING -r -o "%F %K" | head -n 1)
    if [[ -n "$job" ]]; then
      read -r array task <<< "$job"
      scancel "${array}_${task}"
      sleep 1
      run=$(for s in "$@"; do for r in $(seq 0 $(( reps - 1 ))); do echo "$s/r$r"; done; done |
            sed -n "$(( task + 1 ))p")
      [[ -f "$out/runs/$run/check.txt" ]] || { echo "${array}_$task ($run)"; return 0; }
    fi
    sleep 0.2
  done
}

bash "$LAB_SH" start 16 > "$OUT/lab.log" 2>&1 || fail "the lab did not start ($OUT/lab.log)"
source <(bash "$LAB_SH" env)

t0=$(date +%s.%N)
"$HETSCHED" "${SWEEP[@]}" --parallel 2 --out "$OUT/local" > "$OUT/local.txt" 2>&1 ||
  fail "the local sweep failed ($OUT/local.txt)"
t1=$(date +%s.%N)
"$HETSCHED" "${SWEEP[@]}" --executor slurm:poll=1,retries=2 --out "$OUT/slurm" \
  > "$OUT/slurm.txt" 2>&1 &
sweep_pid=$!

killed=$(cancel_one_running "$sweep_pid" "$OUT/slurm" 10 backfill backfill-easy ipsched aucsched2)
[[ -n "$killed" ]] || fail "no task could be cancelled mid-run"
echo "sweep: cancelled task $killed while it ran"
wait "$sweep_pid"
code=$?
sweep_pid=
t2=$(date +%s.%N)
grep "^slurm" "$OUT/slurm.txt"
[[ $code -eq 0 ]] || fail "the slurm sweep exited with $code ($OUT/slurm.txt)"
grep -q "CANCELLED without complete outputs" "$OUT/slurm.txt" || fail "the cancelled task was not reported"
grep -q "resubmitting 1 failed run" "$OUT/slurm.txt" || fail "the cancelled task was not resubmitted"
grep -q "checker    OK in all 40 runs" "$OUT/slurm.txt" || fail "not all 40 runs completed"

# Identical results: every per-run file, check.txt without its wall time, and the table.
diff -r -x check.txt "$OUT/local/runs" "$OUT/slurm/runs" > "$OUT/diff.txt" ||
  fail "per-run outputs differ ($OUT/diff.txt)"
for f in "$OUT"/local/runs/*/*/check.txt; do
  diff <(grep -v ^wall_seconds "$f") <(grep -v ^wall_seconds "${f/\/local\//\/slurm\/}") >/dev/null ||
    fail "check.txt differs: $f"
done
files=$(find "$OUT/slurm/runs" -type f | wc -l)
table() { sed -n '/^metric/,/^checker/p' "$1"; }
diff <(table "$OUT/local.txt") <(table "$OUT/slurm.txt") > "$OUT/table-diff.txt" ||
  fail "the comparison tables differ ($OUT/table-diff.txt)"

# matrix through the same executor: the same matrix.csv as its local threads write.
MATRIX=(matrix --workload eurora:days=1 --schedulers fifo,easy --allocators ff,bf
        --predictors walltime,datadriven)
"$HETSCHED" "${MATRIX[@]}" --out "$OUT/matrix-local" > "$OUT/matrix-local.txt" 2>&1 &&
  "$HETSCHED" "${MATRIX[@]}" --executor slurm:poll=1 --out "$OUT/matrix-slurm" \
    > "$OUT/matrix-slurm.txt" 2>&1 || fail "a matrix failed ($OUT/matrix-*.txt)"
cmp "$OUT/matrix-local/matrix.csv" "$OUT/matrix-slurm/matrix.csv" ||
  fail "matrix.csv differs between the executors"

# reproduce (quick, two comparisons) through it: the same means per scheduler and metric.
REPRO=(reproduce --quick --tables 002-V,000-5 --repro-dir "$ROOT/repro")
"$HETSCHED" "${REPRO[@]}" --out "$OUT/repro-local" > "$OUT/repro-local.txt" 2>&1 &&
  "$HETSCHED" "${REPRO[@]}" --executor slurm:poll=1 --out "$OUT/repro-slurm" \
    > "$OUT/repro-slurm.txt" 2>&1 || fail "a reproduction failed ($OUT/repro-*.txt)"
groups=0
for f in "$OUT"/repro-local/*/result.csv; do
  diff <(grep ^metric "$f") <(grep ^metric "${f/repro-local/repro-slurm}") > /dev/null ||
    fail "reproduce results differ: $f"
  groups=$(( groups + 1 ))
done
[[ $groups -eq 2 ]] || fail "reproduce wrote $groups results, expected 2"

# A restart submits only what is missing: here nothing.
"$HETSCHED" "${SWEEP[@]}" --executor slurm:poll=1 --out "$OUT/slurm" > "$OUT/restart.txt" 2>&1 ||
  fail "the restarted sweep failed ($OUT/restart.txt)"
grep -q "40 run(s), 40 already done" "$OUT/restart.txt" && ! grep -q submitted "$OUT/restart.txt" ||
  fail "the restarted sweep submitted runs again ($OUT/restart.txt)"

# With no retries left, a cancelled run fails the sweep (exit 3), named with its log.
"$HETSCHED" compare --cluster S --workload esp --scheduler ipsched --scheduler aucsched2 \
  --repeat 4 --executor slurm:poll=1,retries=0 --out "$OUT/noretry" > "$OUT/noretry.txt" 2>&1 &
sweep_pid=$!
killed=$(cancel_one_running "$sweep_pid" "$OUT/noretry" 4 ipsched aucsched2)
wait "$sweep_pid"
code=$?
sweep_pid=
[[ -n "$killed" ]] || fail "no task of the no-retry sweep could be cancelled mid-run"
log=$(grep -o "log $OUT/noretry/sweep/logs/[0-9_]*\.log" "$OUT/noretry.txt" | head -n 1)
[[ $code -eq 3 ]] && grep -q "^run .*failed with exit code 3 (CANCELLED" "$OUT/noretry.txt" &&
  [[ -f "${log#log }" ]] || fail "a run failed for good was not reported with its log ($OUT/noretry.txt)"

# The same --out with other options is refused, not mixed.
"$HETSCHED" compare --cluster S --workload esp --scheduler backfill --repeat 10 --seed 1 \
  --executor slurm:poll=1 --out "$OUT/slurm" > "$OUT/other.txt" 2>&1
[[ $? -eq 2 ]] && grep -q "holds another sweep" "$OUT/other.txt" ||
  fail "another sweep in the same --out was not refused ($OUT/other.txt)"

"$HETSCHED" "${SWEEP[@]}" --executor slurm:partition=nosuch --out "$OUT/nosuch" > "$OUT/nosuch.txt" 2>&1
[[ $? -eq 2 ]] && grep -q "unknown partition (sinfo lists: lab)" "$OUT/nosuch.txt" ||
  fail "an unknown partition was not a clear error ($OUT/nosuch.txt)"

printf 'sweep: 40 runs identical (%s files), matrix.csv and reproduce results identical, local %.1f s (--parallel 2), slurm lab %.1f s (16 nodes, one task cancelled and resubmitted)\n' \
  "$files" "$(echo "$t1 - $t0" | bc)" "$(echo "$t2 - $t1" | bc)"
