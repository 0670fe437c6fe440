#!/usr/bin/env bash
# fidelity.sh --ties: which one-millisecond races before a run's first difference explain it.
# First the helpers on made-up input, then a stored real run (tests/data/fidelity-tie:
# multifactor-v, seed 206, session 53) whose model parted from it at t = 174: node n2
# answered the end of job 37 at 174.710 s and the loop's pass at 174.711 s did not have it.
# Session 53 read that as a race; the model now takes a job's answers in together after its
# last one (174.714 s here, session 54), and the run must replay exactly.
# $1: the hetsched binary (absent in the sanitizer build, which builds only test targets).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BIN=${1:-$ROOT/build/hetsched}
source "$ROOT/scripts/slurm-lab/ties-lib.sh"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

# first_difference: the earliest start (either side) of a job that differs.
printf 'id,real_start,model_start,abs_delta,same_nodes\n1,0,0,0,1\n2,50,47,3,1\n3,40,40,0,0\n4,90,60,30,0\n' > "$dir/pj.csv"
[[ $(first_difference "$dir/pj.csv") == 40 ]] || fail "first_difference: $(first_difference "$dir/pj.csv")"
printf 'id,real_start,model_start,abs_delta,same_nodes\n1,0,0,0,1\n' > "$dir/same.csv"
[[ -z $(first_difference "$dir/same.csv") ]] || fail "first_difference of a matching run is not empty"

# tie_candidates: reports within a millisecond of a pass (taken in: a job's answers 1 ms
# after its last, a message 2 ms after its send), in the 5 s before the difference and up
# to 1 s after, nearest the difference first.
cat > "$dir/timing.csv" <<'CSV'
main_pass,30.000,default
main_pass,38.999,default
epilog,38.998,9 n8 answer
epilog,38.995,9 n9 answer
main_pass,39.500,default
epilog,39.498,7 n1 answer
epilog,39.497,7 n2 message
epilog,39.496,7 n3 answer
epilog,39.502,7 n4 answer
epilog,39.499,7 n5
backfill_begin,40.200,
epilog,40.199,8 n6 answer
epilog,29.999,6 n7 answer
epilog,39.491,11 n10 answer
epilog,39.490,11 n11 message
CSV
tie_candidates "$dir/timing.csv" 40 > "$dir/ties.txt"
# Job 7's answers (its last, n4, taken in 3 ms after the pass) are no tie, its message n2
# is; job 9's answers are one row; n5 has no kind; n7's pass is more than 5 s before.
expected=$'40200 backfill 8 * answer 40199 0\n39500 main 7 n2 message 39497 1\n38999 main 9 * answer 38998 0'
[[ $(cat "$dir/ties.txt") == "$expected" ]] || fail "tie_candidates:"$'\n'"$(cat "$dir/ties.txt")"
# With a reach of 12 ms, job 11's answers, taken in 8 ms before the pass at 39.500, are
# listed too; its message, as far before the pass, is not.
tie_candidates "$dir/timing.csv" 40 12 > "$dir/reach.txt"
expected=$'40200 backfill 8 * answer 40199 0\n39500 main 11 * answer 39491 8\n39500 main 7 n2 message 39497 1\n38999 main 9 * answer 38998 0'
[[ $(cat "$dir/reach.txt") == "$expected" ]] || fail "tie_candidates, reach 12:"$'\n'"$(cat "$dir/reach.txt")"

# shift_report moves one node's report, keeps a message's tag, never below 0, and the job's
# own epilog_ms follows its last node.
cat > "$dir/jobs.txt" <<'JOBS'
# hetsched-jobs v1
7 10 5 epilog_ms=6 epilog_by=answer epilog_nodes=n1:6,n2:4m,n3:1 -n 8
8 12 5 epilog_ms=6 epilog_nodes=n1:6 -n 8
JOBS
shift_report "$dir/jobs.txt" 7 n1 -3 > "$dir/a.txt"
grep -qx '7 10 5 epilog_ms=4 epilog_by=answer epilog_nodes=n1:3,n2:4m,n3:1 -n 8' "$dir/a.txt" ||
  fail "shift_report -3: $(sed -n 2p "$dir/a.txt")"
grep -qx '8 12 5 epilog_ms=6 epilog_nodes=n1:6 -n 8' "$dir/a.txt" || fail "shift_report touched another job"
shift_report "$dir/jobs.txt" 7 n3 -2 | grep -q 'epilog_nodes=n1:6,n2:4m,n3:0 ' || fail "shift_report below 0"
shift_report "$dir/jobs.txt" 7 n2 +3 | grep -q 'epilog_ms=7 .*n2:7m,' || fail "shift_report of a message"
shift_report "$dir/jobs.txt" 7 '*' 2 | grep -q 'epilog_ms=8 .*epilog_nodes=n1:8,n2:4m,n3:3 ' ||
  fail "shift_report of a job's answers: $(shift_report "$dir/jobs.txt" 7 '*' 2 | grep '^7 ')"

# The stored run.
if [[ ! -x "$BIN" ]]; then
  echo "skipped: no hetsched binary at $BIN (the sanitizer build has none)"
  exit 77
fi
cp -r "$ROOT/tests/data/fidelity-tie" "$dir/fid"
HETSCHED=$BIN bash "$ROOT/scripts/slurm-lab/fidelity.sh" --remodel "$dir/fid/run" > "$dir/remodel.txt"
grep -q '^jobs 112 .* within 5 s: 112 .* same nodes: 112$' "$dir/fid/run/summary.txt" ||
  fail "the stored run does not replay exactly: $(cat "$dir/fid/run/summary.txt")"
HETSCHED=$BIN bash "$ROOT/scripts/slurm-lab/fidelity.sh" --ties "$dir/fid/run" > "$dir/out.txt"
grep -q '^no difference between the run and its model' "$dir/out.txt" || fail "--ties: $(cat "$dir/out.txt")"
# Taken in without the later ones (here: job 37's nodes but n2 and n4, which answered at
# 174.710 s, made messages), n2's and n4's answers are in at 174.711 s, the model's pass
# starts job 38 on them and the replay parts from the run again: the grouped answers are
# what replays it.
awk '$1 == 37 { for (i = 1; i <= NF; ++i) if ($i ~ /^epilog_nodes=/) {
                  n = split(substr($i, 14), e, ","); out = ""
                  for (k = 1; k <= n; ++k) out = out (k > 1 ? "," : "") e[k] (e[k] ~ /^n[24]:|m$/ ? "" : "m")
                  $i = "epilog_nodes=" out } }
     { print }' "$dir/fid/run/model_jobs.txt" > "$dir/own.txt"
grep -q '^37 .*epilog_nodes=n2:3,n4:3,n3:4m,' "$dir/own.txt" || fail "could not make job 37's other nodes messages"
# shellcheck disable=SC2046
"$BIN" simulate --cluster "$dir/fid/slurm.conf" --workload "$dir/own.txt" --scheduler backfill \
  $(cat "$dir/fid/run/model_options") --out "$dir/own" > /dev/null
within=$(awk -F, 'NR == FNR { if (FNR > 1) real[$1] = $2; next }
                  FNR > 1 && ($1 in real) { d = $6 - real[$1]; if (d < 0) d = -d; if (d <= 5) ++n }
                  END { print n + 0 }' "$dir/fid/run/real.csv" "$dir/own/jobs.csv")
(( within < 112 )) || fail "job 37's first answers taken in alone still replay the run ($within of 112)"

# A stored real run whose answers came in late (tests/data/fidelity-late: esp-het, seed 509,
# session 56): job 100's nodes answered by 159.892 s, but the controller's pass at 159.901 s
# did not have them and started job 109 elsewhere, and every later node set differs. --ties
# must find those answers and show that moving them past that pass replays the run exactly.
cp -r "$ROOT/tests/data/fidelity-late" "$dir/late"
HETSCHED=$BIN bash "$ROOT/scripts/slurm-lab/fidelity.sh" --remodel "$dir/late/run" > /dev/null
HETSCHED=$BIN bash "$ROOT/scripts/slurm-lab/fidelity.sh" --ties "$dir/late/run" > "$dir/late.txt"
grep -q '^first difference at t = 159 s' "$dir/late.txt" || fail "--ties on the late run: $(cat "$dir/late.txt")"
grep -qx '159.901,main,100,\*,answer,159.892,yes,+9,458,458,458' "$dir/late/run/ties.csv" ||
  fail "job 100's late answers not found or not replaying the run:"$'\n'"$(cat "$dir/late/run/ties.csv")"
echo "fidelity ties: ok"
