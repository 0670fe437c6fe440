#!/usr/bin/env bash
# How fast the bridge starts job arrays on the lab: a 40-task array of 1-core 2 s jobs and a
# 12-task array throttled to 3 (%3), submitted at once to an idle 4 x 8-core lab with
# job_submit.lua, the bridge (AUCSCHED2, --interval 2) starting them. Prints the time until
# both arrays completed and the most tasks of the throttled one that ran at once.
#   array-throughput.sh [HETSCHED]   (needs root; its own lab directory and ports; stops them)
set -uo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
HETSCHED=${1:-$ROOT/build/hetsched}
export HETSCHED_LAB=${HETSCHED_LAB:-/tmp/hetsched-array-lab} LAB_PORT_BASE=${LAB_PORT_BASE:-27000}
WORK=$HETSCHED_LAB-run
BRIDGE_PID=""
stop() { [[ -n "$BRIDGE_PID" ]] && kill "$BRIDGE_PID" 2>/dev/null; bash "$HERE/lab.sh" stop >/dev/null 2>&1; }
trap stop EXIT
rm -rf "$WORK"; mkdir -p "$WORK"
sed 's/^local managed = .*/local managed = { lab = true }/' "$ROOT/scripts/bridge/job_submit.lua" > "$WORK/job_submit.lua"
LAB_JOB_SUBMIT_LUA=$WORK/job_submit.lua bash "$HERE/lab.sh" start 4 8 2 >/dev/null || { echo "lab did not start" >&2; exit 1; }
source <(bash "$HERE/lab.sh" env)
"$HETSCHED" bridge --cluster "$SLURM_CONF" --partition lab --scheduler aucsched2 --interval 2 \
  --lock "$WORK/bridge.lock" > "$WORK/bridge.log" 2>&1 &
BRIDGE_PID=$!
sleep 1
begin=$(date +%s.%N)
wide=$(sbatch --parsable -o /dev/null -n 1 -t 1 --array=0-39 --wrap "sleep 2")
throttled=$(sbatch --parsable -o /dev/null -n 1 -t 1 --array=0-11%3 --wrap "sleep 2")
for _ in $(seq 1 600); do [[ -z "$(squeue -h -o %i)" ]] && break; sleep 1; done
end=$(date +%s.%N)
done_tasks=$(grep -E "ArrayJobId=($wide|$throttled) " "$HETSCHED_LAB/jobcomp.txt" | grep -c JobState=COMPLETED)
at_once=$(grep -E "ArrayJobId=$throttled " "$HETSCHED_LAB/jobcomp.txt" |
  sed -E 's/.*StartTime=([^ ]*) EndTime=([^ ]*).*/\1 \2/' |
  while read -r s e; do echo "$(date -d "$s" +%s) $(date -d "$e" +%s)"; done |
  awk '{s[NR]=$1; e[NR]=$2} END {m=0; for (i in s) {c=0; for (j in s) if (s[j] <= s[i] && e[j] > s[i]) c++; if (c > m) m=c}; print m}')
seconds=$(awk -v a="$begin" -v b="$end" 'BEGIN { printf "%.1f", b - a }')
echo "arrays: $done_tasks of 52 tasks completed in $seconds s; at most $at_once of the %3 array at once"
