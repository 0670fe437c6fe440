#!/usr/bin/env bash
# The bridge's live fault matrix on the project's Slurm 22.05 lab (127.0.0.1 only):
# 8 nodes x (8 cores, 2 GPUs), job_submit.lua holding every job of partition `lab`, the
# bridge running AUCSCHED2. Each case disturbs the run the way production would; at the end
# Slurm's own records (jobcomp) must show every job ended exactly once, every job the bridge
# started ran on the nodes it chose, nothing left pending but the never-runnable jobs (with
# their reason visible in squeue), and the bridge never exited except where killed on purpose.
#   bridge_faults.sh OUTDIR        (needs root; stops every daemon it started, even on failure)
set -uo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
LABSH=$ROOT/scripts/slurm-lab/lab.sh
HETSCHED=${HETSCHED:-$ROOT/build/hetsched}
OUT=${1:-/tmp/hetsched-live}
rm -rf "$OUT"; mkdir -p "$OUT/faultbin"
export HETSCHED_LAB=${HETSCHED_LAB:-/tmp/hetsched-live-lab}
LAB=$HETSCHED_LAB
failures=0
BRIDGE_PID=""

say() { echo "[$(date +%T)] $*"; }
fail() { say "FAIL: $*"; failures=$((failures + 1)); }
passes=0
check() { if eval "$1"; then say "ok: $2"; passes=$((passes + 1)); else fail "$2"; fi; }

teardown() {
  [[ -n "$BRIDGE_PID" ]] && kill "$BRIDGE_PID" 2>/dev/null
  sleep 1
  [[ -n "$BRIDGE_PID" ]] && kill -9 "$BRIDGE_PID" 2>/dev/null
  bash "$LABSH" stop >/dev/null 2>&1
}
trap teardown EXIT

sed 's/^local managed = .*/local managed = { lab = true }/' "$ROOT/scripts/bridge/job_submit.lua" > "$OUT/job_submit.lua"
# A second partition on the same nodes, `debug`, which no bridge manages (jobs move there and back).
export LAB_PARTITIONS=$'PartitionName=lab Nodes=n[1-8] Default=YES MaxTime=INFINITE State=UP\nPartitionName=debug Nodes=n[1-8] MaxTime=INFINITE State=UP'
# Ended jobs leave Slurm's listing after a minute, not the default five, so that the restarts
# below meet dependencies on jobs already purged (the bridge then reads Slurm's own marks).
export LAB_EXTRA_CONF="MinJobAge=60"
LAB_JOB_SUBMIT_LUA=$OUT/job_submit.lua LAB_NODE_FEATURES=a100:2 LAB_POWER_SAVE=1 bash "$LABSH" start 8 8 2 || { echo "lab did not start"; exit 1; }
source <(bash "$LABSH" env)
cp "$HERE/fault_scontrol.sh" "$OUT/faultbin/scontrol"

# Starts the bridge in the background (extra arguments and HETSCHED_FAULT go to it).
start_bridge() {
  PATH="$OUT/faultbin:$PATH" "$HETSCHED" bridge --cluster "${BRIDGE_CONF:-$SLURM_CONF}" --partition lab \
    --scheduler "${BRIDGE_SCHEDULER:-aucsched2}" --interval 1 --start-grace 8 --lock "$OUT/bridge.lock" \
    --log-json "$OUT/cycles.jsonl" "$@" >> "$OUT/bridge.log" 2>&1 &
  BRIDGE_PID=$!
  echo "$BRIDGE_PID" > "$OUT/bridge.pid"   # for run.sh, should this script be timed out
  sleep 1
}
bridge_alive() { kill -0 "$BRIDGE_PID" 2>/dev/null; }
submit() { sbatch --parsable -o /dev/null "$@" | cut -d';' -f1; }
# Waits until no job is pending or running except those given (ids), at most $1 seconds.
wait_quiet() {
  local limit=$1; shift
  local except=" $* "
  for _ in $(seq 1 "$limit"); do
    local busy=0
    for id in $(squeue -h -o %i 2>/dev/null); do [[ "$except" == *" $id "* ]] || busy=1; done
    (( busy == 0 )) && return 0
    sleep 1
  done
  return 1
}
# Jobs Slurm started on any of the nodes given (space separated) at or after epoch $1 and
# before epoch $2: Slurm's own record, whatever the bridge had planned before.
# Waits up to $1 seconds until every job named after it runs.
wait_running() {
  local seconds=$1; shift
  local ids; ids=$(IFS=,; echo "$*")
  for _ in $(seq 1 "$seconds"); do
    [[ "$(squeue -h -j "$ids" -t R -o %i | wc -l)" -eq $# ]] && return 0; sleep 1
  done
  return 1
}
started_on_during() {
  local t0=$1 t1=$2; shift 2
  local line start nodes host
  while read -r line; do
    start=$(grep -o 'StartTime=[^ ]*' <<< "$line" | cut -d= -f2)
    nodes=$(grep -o ' NodeList=[^ ]*' <<< "$line" | cut -d= -f2)
    [[ "$start" == Unknown || "$start" == None || -z "$nodes" || "$nodes" == "(null)" ]] && continue
    start=$(date -d "$start" +%s)
    (( start >= t0 && start < t1 )) || continue
    for host in $(scontrol show hostnames "$nodes"); do
      [[ " $* " == *" $host "* ]] && { echo "$line" | cut -d' ' -f1; break; }
    done
  done < <(scontrol show job -o)
}

say "case: jobs held at submission by job_submit.lua, started by the bridge"
start_bridge
held_by_lua=$(submit -n 4 -t 1 --wrap "sleep 3")
check '[[ "$(squeue -h -j $held_by_lua -o %r)" == JobHeldUser || "$(squeue -h -j $held_by_lua -o %T)" != PENDING ]]' "a plain sbatch is held for the bridge"
for i in $(seq 1 12); do submit -n $(( (i % 4) * 4 + 2 )) -t 1 --wrap "sleep $(( 3 + i % 5 ))" >/dev/null; done
for i in 1 2 3; do submit -N 2 -n 4 --gres=gpu:1 --comment=hetsched:gpu=1-2 -t 1 --wrap "sleep 4" >/dev/null; done

say "case: impossible jobs stay held with a visible reason; a job without a limit runs"
too_many_gpus=$(submit -n 2 -t 1 --gres=gpu:1 --comment=hetsched:gpu=3-3 --wrap "sleep 1")
bad_range=$(submit -n 2 -t 1 --comment=hetsched:gpu=3-1 --wrap "sleep 1")
no_limit=$(submit -n 2 --wrap "sleep 1")   # MaxTime=INFINITE: Slurm would run it, so does the bridge
NEVER="$too_many_gpus $bad_range"

say "case: non-held jobs arriving steadily in the managed partition"
for i in $(seq 1 6); do
  j=$(submit -n 6 -t 1 --wrap "sleep 4"); scontrol release "$j"   # the user hands it to Slurm
  submit -n 5 -t 1 --wrap "sleep 3" >/dev/null
  sleep 1
done

say "case: a second bridge started by mistake"
"$HETSCHED" bridge --cluster "$SLURM_CONF" --partition lab --lock "$OUT/bridge.lock" --cycles 1 > "$OUT/second.log" 2>&1
rc=$?
check '[[ $rc -eq 2 ]] && grep -q "another bridge" "$OUT/second.log"' "a second bridge refuses to start (rc $rc)"
check 'bridge_alive' "the first bridge is still running"

say "case: a node drained and resumed mid-run"
scontrol update NodeName=n2 State=DRAIN Reason=live-test
drained_at=$(( $(date +%s) + 1 ))   # a start in the same second may precede the drain
for i in $(seq 1 6); do submit -n 8 -t 1 --wrap "sleep 3" >/dev/null; done
sleep 12
on_drained=$(started_on_during "$drained_at" "$(date +%s)" n2)
check '[[ -z "$on_drained" ]]' "Slurm started nothing on the drained node (${on_drained:-none})"
scontrol update NodeName=n2 State=RESUME

say "case: a node stops responding, then its slurmd registers again"
# Slurm starts nothing on a node that misses its pings (scontrol shows IDLE+NOT_RESPONDING;
# State=NoResp sets that at once rather than after a ping); a job pinned there would wait out
# the grace. Restarting the node's slurmd registers it, which clears the flag.
wait_quiet 60 $NEVER
scontrol update NodeName=n7 State=NoResp
noresp_mark=$(( $(wc -l < "$OUT/bridge.log") + 1 ))
for i in $(seq 1 8); do submit -n 8 -t 1 --wrap "sleep 3" >/dev/null; done
sleep 12
on_noresp=$(tail -n +"$noresp_mark" "$OUT/bridge.log" | grep -E "started on (.* )?n7:" || true)
check '[[ -z "$on_noresp" && "$(scontrol show node n7)" == *NOT_RESPONDING* ]]' \
  "the bridge pinned nothing on the node that does not respond (${on_noresp:-none})"
n7_pid=$(cat "$LAB/slurmd-n7.pid")
kill "$n7_pid"
for _ in $(seq 1 10); do kill -0 "$n7_pid" 2>/dev/null || break; sleep 1; done
slurmd -f "$SLURM_CONF" -N n7
for _ in $(seq 1 20); do [[ "$(scontrol show node n7)" != *NOT_RESPONDING* ]] && break; sleep 1; done
check '[[ "$(scontrol show node n7)" != *NOT_RESPONDING* ]] && wait_quiet 60 $NEVER' \
  "n7 answers again once its slurmd registered, and every job ran ($(scontrol show node n7 | grep -o 'State=[^ ]*'))"

say "case: a node powered down to save power, then a job that needs every node"
# Slurm allocates a powered-down node and resumes it for the job (the lab's ResumeProgram
# starts its slurmd); the bridge must count it usable, or a job needing it waits for ever.
scontrol update NodeName=n8 State=POWER_DOWN
for _ in $(seq 1 30); do [[ "$(scontrol show node n8)" == *State=IDLE+POWERED_DOWN* ]] && break; sleep 1; done
check '[[ "$(scontrol show node n8)" == *State=IDLE+POWERED_DOWN* ]]' \
  "n8 powered down ($(scontrol show node n8 | grep -o 'State=[^ ]*'))"
whole=$(submit -N 8 -n 64 -t 1 --wrap "sleep 2")
check 'wait_quiet 120 $NEVER && grep -q "JobId=$whole .*JobState=COMPLETED" "$LAB/jobcomp.txt" &&
       grep -q "job $whole: started on" "$OUT/bridge.log"' \
  "the bridge pinned the 8-node job on the powered-down node too, Slurm resumed it, and it ran ($(squeue -h -j $whole -o %T/%r 2>/dev/null))"

say "case: an advance reservation on some nodes"
scontrol create reservation ReservationName=live StartTime=now Duration=5 Nodes=n7,n8 Users=root Flags=IGNORE_JOBS >/dev/null
reserved_at=$(( $(date +%s) + 1 ))
for i in $(seq 1 6); do submit -n 8 -t 1 --wrap "sleep 3" >/dev/null; done
sleep 12
on_reserved=$(started_on_during "$reserved_at" "$(date +%s)" n7 n8)
check '[[ -z "$on_reserved" ]]' "Slurm started nothing on the reserved nodes (${on_reserved:-none})"
scontrol delete ReservationName=live

say "case: scancel of held and running jobs"
blocker=$(submit -N 8 -n 64 -t 1 --wrap "sleep 20")
victim_held=$(submit -N 8 -n 64 -t 1 --wrap "sleep 1")
sleep 4
scancel "$victim_held"
sleep 2
scancel "$blocker"

say "case: everyday kinds of job: dependencies, a begin time, an array, a heterogeneous job, -C, -x, --exclusive, -w"
kinds_at=$(date +%s)
first=$(submit -n 2 -t 1 --wrap "sleep 6")
after_ok=$(submit -n 2 -t 1 -d "afterok:$first" --wrap "sleep 2")
after_not_ok=$(submit -n 2 -t 1 -d "afternotok:$first" --wrap "sleep 2")   # can never be met
begins=$(submit -n 2 -t 1 --begin=now+15 --wrap "sleep 2")
array=$(submit -n 1 -t 1 --array=0-5%2 --wrap "sleep 4")
printf '#!/bin/bash\n#SBATCH -t 1 -n 1\n#SBATCH hetjob\n#SBATCH -t 1 -n 2\nsleep 2\n' > "$OUT/het.sh"
het=$(submit "$OUT/het.sh")
featured=$(submit -n 1 -t 1 -C a100 --wrap "sleep 2")
exclusive=$(submit -n 2 -t 1 --exclusive -x n1,n2,n3 --wrap "sleep 2")
listed=$(submit -n 2 -t 1 -w n5 --wrap "sleep 2")
NEVER="$NEVER $after_not_ok"

check 'wait_quiet 120 $NEVER' "the first wave finished"

# Slurm's record of a job: "START END NODES" (epoch seconds), from jobcomp.
record() {
  grep -E "^JobId=$1 " "$LAB/jobcomp.txt" | tail -1 |
    sed -E 's/.*StartTime=([^ ]*) EndTime=([^ ]*) NodeList=([^ ]*).*/\1 \2 \3/' |
    { read -r s e n; echo "$(date -d "$s" +%s) $(date -d "$e" +%s) $n"; }
}
read -r _ first_end _ < <(record "$first")
read -r ok_start _ _ < <(record "$after_ok")
check '(( ok_start >= first_end ))' "the afterok job started after its dependency ended ($ok_start >= $first_end)"
check '! grep -q "job $after_ok: released at" "$OUT/bridge.log"' "the dependent job was never released early and held again"
read -r begin_start _ _ < <(record "$begins")
check '(( begin_start >= kinds_at + 15 ))' "the --begin job started at its begin time (+$(( begin_start - kinds_at )) s)"
most=$(grep -E "ArrayJobId=$array " "$LAB/jobcomp.txt" | sed -E 's/.*StartTime=([^ ]*) EndTime=([^ ]*).*/\1 \2/' |
  while read -r s e; do echo "$(date -d "$s" +%s) $(date -d "$e" +%s)"; done |
  awk '{s[NR]=$1; e[NR]=$2} END {m=0; for (i in s) {c=0; for (j in s) if (s[j] <= s[i] && e[j] > s[i]) c++; if (c > m) m=c}; print m}')
tasks=$(grep -E "ArrayJobId=$array " "$LAB/jobcomp.txt" | grep -c "JobState=COMPLETED")
check '[[ $tasks -eq 6 && $most -le 2 ]]' "the array's 6 tasks ran, at most 2 at once (%2): $tasks tasks, $most at once"
het_done=$(grep -c -E "HetJobId=$het .*" "$LAB/jobcomp.txt")
check '[[ $het_done -eq 2 ]] && ! grep -E "HetJobId=$het " "$LAB/jobcomp.txt" | grep -qv COMPLETED' "the heterogeneous job's 2 components completed"
read -r _ _ featured_nodes < <(record "$featured")
check '[[ "$featured_nodes" == n1 || "$featured_nodes" == n2 ]]' "the -C a100 job ran on a node with a100 ($featured_nodes)"
read -r _ _ exclusive_nodes < <(record "$exclusive")
check '[[ -n "$exclusive_nodes" && ! "$exclusive_nodes" =~ ^n[123]$ ]]' "the --exclusive -x n1,n2,n3 job ran elsewhere ($exclusive_nodes)"
read -r _ _ listed_nodes < <(record "$listed")
check '[[ "$listed_nodes" == n5 ]]' "the -w n5 job ran on n5 ($listed_nodes)"
check 'grep -q "JobId=$no_limit .*JobState=COMPLETED" "$LAB/jobcomp.txt"' "the job without a limit ran"

say "case: root holds a job waiting for the bridge, then releases it"
wide=$(submit -N 8 -n 64 -t 1 --wrap "sleep 12")
for _ in $(seq 1 10); do [[ "$(squeue -h -j "$wide" -o %T)" == RUNNING ]] && break; sleep 1; done
op_held=$(submit -n 2 -t 1 --wrap "sleep 1")
scontrol hold "$op_held"
sleep 18   # the wide job has ended: the bridge would have started op_held by now
check '[[ "$(squeue -h -j $op_held -o %T/%r)" == PENDING/JobHeldAdmin ]]' "the bridge left the job root held alone ($(squeue -h -j $op_held -o %T/%r))"
check '! grep -q "job $op_held: " "$OUT/bridge.log"' "the bridge never pinned or released it"
scontrol release "$op_held"
check 'wait_quiet 60 $NEVER' "once root released it, Slurm ran it"
check 'grep -q "JobId=$op_held .*JobState=COMPLETED" "$LAB/jobcomp.txt"' "the job root held and released completed"

say "case: jobs their owner holds (scontrol hold, also once pinned) wait for the owner's release"
# As an ordinary user (nobody): job_submit.lua marks the owner's hold in the Comment, which
# the bridge reads. The bridge is stopped while the jobs are submitted and held, and killed
# once at the release of the second (pinned, still held), so that no start can race a hold.
# A job the user submits with -H is handed to the bridge, as where job_submit.lua is not used.
as_owner() { runuser -u nobody -- env SLURM_CONF="$SLURM_CONF" "$@"; }
owner_submit() { as_owner sbatch --parsable -o /dev/null --chdir /tmp "$@" | cut -d';' -f1; }
kill "$BRIDGE_PID" 2>/dev/null; wait "$BRIDGE_PID" 2>/dev/null
handed_over=$(owner_submit -H -n 2 -t 1 --wrap "sleep 1")
held_later=$(owner_submit -n 2 -t 1 --comment "own=note" --wrap "sleep 1")
as_owner scontrol hold "$held_later"
pinned=$(owner_submit -n 2 -t 1 --wrap "sleep 1")
rm -f "$OUT/fault.once"
HETSCHED_FAULT="release $pinned" HETSCHED_FAULT_ONCE="$OUT/fault.once" start_bridge
for _ in $(seq 1 20); do bridge_alive || break; sleep 1; done
check '! bridge_alive && scontrol show job $pinned | grep -q "ReqNodeList=n"' "job $pinned was pinned, and the bridge killed before its release"
# Moved out now, it would take the pinned request where no bridge restores it: the move waits.
moved_pinned=$(as_owner scontrol update JobId="$pinned" Partition=debug 2>&1)
check '[[ "$moved_pinned" == *"try again later"* && "$(squeue -h -j $pinned -o %P)" == lab ]]' \
  "its owner cannot move the pinned job out of the managed partition ($moved_pinned)"
as_owner scontrol hold "$pinned"
start_bridge
sleep 8   # the machine is idle: the bridge would have started every job by now
# (From jobcomp: the bridge may have started it in the cycle the fault cut short, unlogged.)
check 'grep -q "JobId=$handed_over .*JobState=COMPLETED" "$LAB/jobcomp.txt"' "the job submitted with -H was run by the bridge"
OWNED="$held_later $pinned"
for id in $OWNED; do
  check '[[ "$(squeue -h -j $id -o %T/%r)" == PENDING/JobHeldUser && "$(squeue -h -j $id -o %k)" == "[hetsched] held by its user"* ]] &&
         ! grep -q "job $id: started on" "$OUT/bridge.log"' \
    "job $id stays held by its owner ($(squeue -h -j $id -o %T/%r), $(squeue -h -j $id -o %k))"
done
check 'scontrol show job $pinned | grep -q "ReqNodeList=(null)"' "the pinned job's request was restored"
for id in $OWNED; do as_owner scontrol release "$id"; done
check 'scontrol show job -o $held_later | grep -q " Comment=own=note "' "its owner's comment is back after the release"
check 'wait_quiet 60 $NEVER' "once their owner released them, the bridge ran them"
for id in $OWNED; do
  check 'grep -q "JobId=$id .*JobState=COMPLETED" "$LAB/jobcomp.txt" && grep -q "job $id: started on" "$OUT/bridge.log"' \
    "job $id completed, started by the bridge"
done

say "case: jobs their owner moves out of the managed partition and into it (scontrol update Partition=)"
# With the bridge stopped: a job moved out to `debug` must not stay held where no bridge
# looks (Slurm runs it there); one moved in from `debug` must wait for the bridge, which
# starts it at its begin time.
kill "$BRIDGE_PID" 2>/dev/null; wait "$BRIDGE_PID" 2>/dev/null
moved_out=$(owner_submit -n 2 -t 1 --wrap "sleep 1")
as_owner scontrol update JobId="$moved_out" Partition=debug
moved_in_at=$(date +%s)
moved_in=$(owner_submit -p debug -n 2 -t 1 --begin=now+12 --wrap "sleep 1")
as_owner scontrol update JobId="$moved_in" Partition=lab
for _ in $(seq 1 15); do grep -q "JobId=$moved_out .*JobState=COMPLETED" "$LAB/jobcomp.txt" && break; sleep 1; done
check 'grep -q "JobId=$moved_out .*JobState=COMPLETED.*Partition=debug" "$LAB/jobcomp.txt"' \
  "the job moved out ran in debug without the bridge"
check '[[ "$(squeue -h -j $moved_in -o %P/%T/%r)" == lab/PENDING/JobHeldUser ]]' \
  "the job moved in is held for the bridge ($(squeue -h -j $moved_in -o %P/%T/%r))"
start_bridge
check 'wait_quiet 60 $NEVER' "the bridge ran the job moved in"
read -r moved_in_start _ _ < <(record "$moved_in")
check 'grep -q "job $moved_in: started on" "$OUT/bridge.log" && (( moved_in_start >= moved_in_at + 12 ))' \
  "the bridge started it at its begin time (+$(( moved_in_start - moved_in_at )) s)"

say "case: the managed partition set DOWN for maintenance, then UP"
scontrol update PartitionName=lab State=DOWN
down_mark=$(wc -l < "$OUT/bridge.log")
while_down="$(submit -n 2 -t 1 --wrap "sleep 1") $(submit -n 4 -t 1 --wrap "sleep 1")"
sleep 12   # past the grace (8 s): a release Slurm cannot start would show by now
released_while_down=$(tail -n +"$down_mark" "$OUT/bridge.log" | grep -c -E "started on|not started by Slurm")
check '[[ $released_while_down -eq 0 ]] && tail -n +"$down_mark" "$OUT/bridge.log" | grep -q "partition lab is DOWN"' \
  "nothing was released while the partition was down ($released_while_down releases), and the bridge said why"
scontrol update PartitionName=lab State=UP
up_at=$(date +%s)
wait_quiet 30 $NEVER; quiet=$?
check '[[ $quiet -eq 0 ]]' "once it was up, its jobs ran ($(( $(date +%s) - up_at )) s)"

say "case: an operator lowers the partition's MaxTime and MaxNodes, then raises them"
# Slurm keeps a job beyond them pending (PartitionTimeLimit, PartitionNodeLimit): the bridge
# refuses it with that reason instead of releasing it again and again, plans a job free in
# its node count on at most MaxNodes nodes, and reads the limits again every cycle.
scontrol update PartitionName=lab MaxTime=5 MaxNodes=2
limits_mark=$(wc -l < "$OUT/bridge.log")
too_long=$(submit -n 1 -t 10 --wrap "sleep 1")
too_wide=$(submit -N 3 -n 3 -t 1 --wrap "sleep 1")
spread=$(submit -N 1-8 -n 12 -t 1 --wrap "sleep 2")
sleep 6
for id in $too_long $too_wide; do
  check '[[ "$(squeue -h -j $id -o %T/%k)" == "PENDING/[hetsched] never runnable: "*"(Slurm keeps it pending: Partition"* ]] &&
         ! tail -n +"$limits_mark" "$OUT/bridge.log" | grep -q "job $id: started on"' \
    "job $id waits held with the partition's limit named ($(squeue -h -j $id -o %k))"
done
scontrol update PartitionName=lab MaxTime=UNLIMITED MaxNodes=UNLIMITED
check 'wait_quiet 30 $NEVER' "once the limits were raised, the jobs ran"
spread_nodes=$(grep -o "JobId=$spread .*" "$LAB/jobcomp.txt" | grep -o "NodeCnt=[0-9]*" | cut -d= -f2)
check '[[ "$spread_nodes" == 2 ]]' "the job free in its node count ran on MaxNodes nodes (${spread_nodes:-none})"
for id in $too_long $too_wide; do
  check 'grep -q "JobId=$id .*JobState=COMPLETED" "$LAB/jobcomp.txt" && grep -q "job $id: started on" "$OUT/bridge.log"' \
    "job $id completed, started by the bridge"
done

say "case: an operator moves two nodes out of the managed partition, then back"
# Slurm starts none of the partition's jobs on a node it no longer lists; the bridge reads the
# partition's Nodes every cycle and pins nothing there.
scontrol update PartitionName=lab Nodes=n[1-6]
moved_mark=$(( $(wc -l < "$OUT/bridge.log") + 1 ))
for i in $(seq 1 8); do submit -n 8 -t 1 --wrap "sleep 3" >/dev/null; done
sleep 12
on_moved=$(tail -n +"$moved_mark" "$OUT/bridge.log" | grep -E "started on (.* )?n[78]:" || true)
check '[[ -z "$on_moved" ]]' "the bridge pinned nothing on the nodes moved out of the partition (${on_moved:-none})"
scontrol update PartitionName=lab Nodes=n[1-8]
check 'wait_quiet 60 $NEVER' "once the nodes were back, every job ran"

say "case: the bridge's slurm.conf lists fewer nodes in the partition than Slurm does"
# A node added to the partition (by scontrol, or in a slurm.conf the bridge was not restarted
# on) is used at once: the bridge plans on the nodes the partition lists now. A job needing
# all 8 nodes would otherwise wait for ever as never runnable on the 7 of the bridge's copy.
kill "$BRIDGE_PID" 2>/dev/null; wait "$BRIDGE_PID" 2>/dev/null
mkdir -p "$OUT/conf-n7"; cp "$(dirname "$SLURM_CONF")"/*.conf "$OUT/conf-n7/"
sed -i 's/^PartitionName=lab Nodes=n\[1-8\]/PartitionName=lab Nodes=n[1-7]/' "$OUT/conf-n7/slurm.conf"
check 'grep -q "^PartitionName=lab Nodes=n\[1-7\]" "$OUT/conf-n7/slurm.conf"' "the bridge's copy lists n[1-7] in the partition"
added_mark=$(( $(wc -l < "$OUT/bridge.log") + 1 ))
BRIDGE_CONF="$OUT/conf-n7/slurm.conf" start_bridge
all_eight=$(submit -N 8 -n 8 -t 1 --wrap "sleep 2")
check 'wait_quiet 60 $NEVER' "a job on all 8 nodes ran under the bridge that was given 7"
check 'grep -q "JobId=$all_eight .*JobState=COMPLETED" "$LAB/jobcomp.txt" && tail -n +"$added_mark" "$OUT/bridge.log" | grep -qE "job $all_eight: started on .*n8:"' \
  "job $all_eight completed, started by the bridge with n8"
kill "$BRIDGE_PID" 2>/dev/null; wait "$BRIDGE_PID" 2>/dev/null
start_bridge

say "case: the partition's MaxCPUsPerNode caps its jobs together on each node"
# With 6 of each node's 8 CPUs open to the partition, two 4-CPU jobs never share a node:
# Slurm would keep the second pending (Resources) with 4 CPUs free. The bridge must plan
# around the cap instead of releasing such a job and holding it again after the grace (the
# jobs outlast the 8-s grace: a build without the cap had 6 of 12 held again on a lab).
scontrol update PartitionName=lab MaxCPUsPerNode=6
cap_mark=$(wc -l < "$OUT/bridge.log")
capped=""
for i in $(seq 1 12); do capped="$capped $(submit -N 1 -n 4 -t 1 --wrap "sleep 12")"; done
check 'wait_quiet 60 $NEVER' "the 12 jobs of 4 CPUs ran under MaxCPUsPerNode=6"
capped_ok=0
for id in $capped; do
  grep -q "JobId=$id .*JobState=COMPLETED" "$LAB/jobcomp.txt" &&
    ! tail -n +"$cap_mark" "$OUT/bridge.log" | grep -q "job $id: .*held again" && capped_ok=$((capped_ok + 1))
done
check '[[ $capped_ok == 12 ]]' "all 12 completed, none released onto CPUs the cap keeps from it ($capped_ok of 12)"
scontrol update PartitionName=lab MaxCPUsPerNode=UNLIMITED

for step in "AdminComment=hetsched:v1;phase=pinned" "release" "Priority="; do
  say "case: kill -9 of the bridge at '$step', then a restart"
  kill "$BRIDGE_PID" 2>/dev/null; wait "$BRIDGE_PID" 2>/dev/null
  rm -f "$OUT/fault.once"
  HETSCHED_FAULT="$step" HETSCHED_FAULT_ONCE="$OUT/fault.once" start_bridge
  for i in $(seq 1 5); do submit -n $(( i * 3 )) -t 1 --wrap "sleep 3" >/dev/null; done
  for _ in $(seq 1 20); do bridge_alive || break; sleep 1; done
  check '! bridge_alive && [[ -e "$OUT/fault.once" ]]' "the bridge was killed at '$step'"
  start_bridge
  check 'wait_quiet 90 $NEVER' "after the restart every job ran"
done

say "case: slurmctld stopped and restarted mid-run"
for i in $(seq 1 10); do submit -n 4 -t 1 --wrap "sleep 5" >/dev/null; done
sleep 2
bash "$LABSH" restart-controller 8
check 'bridge_alive' "the bridge waited out the controller outage"
check 'wait_quiet 120 $NEVER' "jobs submitted before the outage all ran"

say "case: a node fails under a running job, and an operator requeues another"
# Slurm requeues both with a begin time about 2 minutes on; the bridge must hold them again
# with their request restored (not leave them pinned to the nodes they ran on), and run them
# once that time has come (checked with the final records, after the next case).
victim_node=$(submit -n 8 -t 2 --wrap "sleep 60")
requeued=$(submit -n 8 -t 2 --wrap "sleep 60")
wait_running 20 "$victim_node" "$requeued"
failed_node=$(squeue -h -j "$victim_node" -o %N)
check '[[ -n "$failed_node" ]]' "both jobs were started by the bridge (the first on ${failed_node:-nothing})"
scontrol update NodeName="$failed_node" State=DOWN Reason=live-node-failure
scontrol requeue "$requeued"
sleep 14   # the grace (8 s) and a cycle or two
for id in $victim_node $requeued; do
  check '[[ "$(squeue -h -j $id -o %T/%r)" == PENDING/JobHeldUser ]] &&
         scontrol show job $id | grep -q "ReqNodeList=(null)"' \
    "job $id is held again with its request restored ($(squeue -h -j $id -o %T/%r))"
done
scontrol update NodeName="$failed_node" State=RESUME 2>/dev/null   # unless ReturnToService=2 did
REQUEUED="$victim_node $requeued"

say "case: an operator requeue-holds a job the bridge started, special-exits one, and stops another (scancel -s STOP)"
# The requeue hold (PENDING, Priority 0, job_requeued_in_held_state) is the operator's: the
# bridge restores the request and never releases the job; so is a special exit (shown as
# JobState=SPECIAL_EXIT, not PENDING); the stopped job (STOPPED) still holds its node, so a
# job needing every core must wait for it, not be pinned beside it.
op_requeued=$(submit -n 8 -t 2 --wrap "sleep 60")
special=$(submit -n 8 -t 2 --wrap "sleep 60")
stopped=$(submit -n 8 -t 1 --wrap "sleep 20")
wait_running 20 "$op_requeued" "$special" "$stopped"
scontrol requeuehold "$op_requeued"
scontrol requeuehold State=SpecialExit "$special"
scancel -s STOP "$stopped"
everything=$(submit -N 8 -n 64 -t 1 --wrap "sleep 1")
sleep 14   # the grace (8 s) and a cycle or two
check '[[ "$(squeue -h -j $op_requeued -o %T/%r)" == "PENDING/job requeued in held state" ]] &&
       scontrol show job $op_requeued | grep -q "ReqNodeList=(null)"' \
  "the operator's requeue hold stands, the request restored ($(squeue -h -j $op_requeued -o %T/%r))"
check '[[ "$(squeue -h -j $special -o %T)" == SPECIAL_EXIT ]] && scontrol show job $special | grep -q "ReqNodeList=(null)" &&
       grep -q "job $special: held by an operator" "$OUT/bridge.log"' \
  "the special exit is the operator's hold, the request restored ($(squeue -h -j $special -o %T/%r))"
check '[[ "$(squeue -h -j $stopped -o %T)" == STOPPED ]] && ! grep -q "job $everything: released at" "$OUT/bridge.log"' \
  "no start was pinned beside the stopped job ($(squeue -h -j $stopped -o %T); job $everything $(squeue -h -j $everything -o %T/%r))"
scancel -s CONT "$stopped"
scontrol release "$op_requeued"   # Slurm's to run now, after their requeue begin time
scontrol release "$special"
REQUEUED="$REQUEUED $op_requeued $special"
SLURM_RUN="$op_requeued $special"

say "case: Slurm holds a job the bridge handed over when its reservation ends, then an operator requeue-holds it"
# A job asking an advance reservation is Slurm's to place: released unpinned, job_submit.lua's
# record left on it. A reservation that ends while the job still waits (here on a dependency)
# makes Slurm hold it (RESV_DEL_HOLD, Priority 0, "Reservation brief was deleted"); so does a
# requeue hold once it ran. Both wait for a person's release, never the bridge's.
before=$(submit -n 1 -t 1 --wrap "sleep 25")
scontrol create reservation ReservationName=brief StartTime=now EndTime=now+8 Nodes=n8 Users=root >/dev/null
in_resv=$(submit -n 2 -t 1 -d afterok:"$before" --reservation=brief --wrap "sleep 20")
for _ in $(seq 1 40); do [[ "$(squeue -h -j "$in_resv" -o %T)" == RESV_DEL_HOLD ]] && break; sleep 1; done
wait_quiet 40 $NEVER "$in_resv"   # its dependency met: only Slurm's hold keeps it now
sleep 4   # several cycles
check '[[ "$(squeue -h -j $in_resv -o %T)" == RESV_DEL_HOLD ]] && grep -q "job $in_resv: .*released to Slurm" "$OUT/bridge.log" &&
       ! grep -q "job $in_resv: started on" "$OUT/bridge.log"' \
  "the handed-over job whose reservation ended stays held by Slurm ($(squeue -h -j $in_resv -o %T/%r))"
scontrol release "$in_resv"
check 'wait_running 20 $in_resv' "once released, Slurm ran it ($(squeue -h -j $in_resv -o %T/%r))"
scontrol requeuehold "$in_resv"
sleep 6
check '[[ "$(squeue -h -j $in_resv -o %T/%r)" == "PENDING/job requeued in held state" ]] &&
       ! grep -q "job $in_resv: started on" "$OUT/bridge.log"' \
  "the operator's requeue hold of the handed-over job stands ($(squeue -h -j $in_resv -o %T/%r))"
scontrol release "$in_resv"
REQUEUED="$REQUEUED $in_resv"
SLURM_RUN="$SLURM_RUN $in_resv"

say "case: 200 held jobs at once"
big_mark=$(wc -l < "$OUT/cycles.jsonl")
for i in $(seq 1 200); do submit -n $(( i % 8 + 1 )) -t 1 --wrap "sleep 1" >/dev/null; done
check 'wait_quiet 400 $NEVER' "200 jobs ran"
max_cycle=$(tail -n +"$big_mark" "$OUT/cycles.jsonl" | grep -o '"duration_ms":[0-9]*' | cut -d: -f2 | sort -n | tail -1)
say "longest cycle with 200 jobs queued: ${max_cycle} ms"

if grep -q "^HETSCHED_WITH_PYTHON:BOOL=ON" "$(dirname "$HETSCHED")/CMakeCache.txt" 2>/dev/null; then
  say "case: a Python policy (examples/python/fcfs.py) drives the bridge after a restart"
  kill "$BRIDGE_PID"; wait "$BRIDGE_PID" 2>/dev/null
  py_mark=$(wc -l < "$OUT/bridge.log")
  BRIDGE_SCHEDULER="py:$ROOT/examples/python/fcfs.py:Fcfs" start_bridge
  for i in $(seq 1 10); do submit -n $(( i % 4 * 4 + 2 )) -t 1 --wrap "sleep 2" >/dev/null; done
  check 'wait_quiet 90 $NEVER' "the Python policy's jobs all ran"
  py_started=$(tail -n +"$py_mark" "$OUT/bridge.log" | grep -c "started on")
  check '[[ $py_started -ge 10 ]] && bridge_alive' "the Python policy started them through the bridge ($py_started starts)"

  say "case: a Python policy raises in every pass for a while, then proposes nodes other jobs hold"
  # tests/live/policies/flaky.py raises while its flag file exists, then places every job as
  # if the cluster were idle: the bridge must keep the jobs held while the policy fails, turn
  # down each proposal on a busy node alone, and never stop.
  kill "$BRIDGE_PID"; wait "$BRIDGE_PID" 2>/dev/null
  flaky_mark=$(wc -l < "$OUT/bridge.log")
  touch "$OUT/flaky.flag"
  BRIDGE_SCHEDULER="py:$HERE/policies/flaky.py:Flaky:flag=$OUT/flaky.flag,idle_placement=1" start_bridge
  flaky_jobs=""
  for i in $(seq 1 6); do flaky_jobs+=" $(submit -N 1 -n 8 -t 1 --wrap "sleep 3")"; done
  sleep 6
  flaky_held=$(squeue -h -j "$(echo $flaky_jobs | tr ' ' ,)" -o %T/%r | grep -c PENDING/JobHeldUser)
  check '[[ $flaky_held -eq 6 ]] && bridge_alive && tail -n +"$flaky_mark" "$OUT/bridge.log" | grep -q "policy error: .*flag file" &&
         tail -n +"$flaky_mark" "$OUT/bridge.log" | grep -q "policy error again"' \
    "while the policy raises, its jobs stay held and the bridge goes on ($flaky_held of 6 held)"
  rm -f "$OUT/flaky.flag"
  check 'wait_quiet 120 $NEVER' "once it stops raising, its jobs all ran"
  flaky_refused=$(tail -n +"$flaky_mark" "$OUT/bridge.log" | grep -c "proposal refused: exceeds what is free now")
  check '[[ $flaky_refused -gt 0 ]] && bridge_alive' \
    "its proposals on busy nodes were turned down one by one ($flaky_refused), the bridge still running"

  say "case: a Python policy stuck in a loop is cut off at the pass time limit; SIGTERM ends a stuck pass"
  kill "$BRIDGE_PID"; wait "$BRIDGE_PID" 2>/dev/null
  stuck_mark=$(wc -l < "$OUT/bridge.log")
  touch "$OUT/spin.flag"
  BRIDGE_SCHEDULER="py:$HERE/policies/flaky.py:Flaky:flag=$OUT/flaky.flag,spin=$OUT/spin.flag" \
    start_bridge --policy-time-limit 2
  stuck_jobs=""
  for i in $(seq 1 4); do stuck_jobs+=" $(submit -n 4 -t 1 --wrap "sleep 2")"; done
  sleep 8
  stuck_held=$(squeue -h -j "$(echo $stuck_jobs | tr ' ' ,)" -o %T/%r | grep -c PENDING/JobHeldUser)
  check '[[ $stuck_held -eq 4 ]] && bridge_alive &&
         tail -n +"$stuck_mark" "$OUT/bridge.log" | grep -q "decide() was cut off: it ran past the pass time limit of 2 s"' \
    "each stuck pass is cut off after 2 s, its jobs stay held and the bridge goes on ($stuck_held of 4 held)"
  kill "$BRIDGE_PID"; wait "$BRIDGE_PID" 2>/dev/null
  stop_mark=$(wc -l < "$OUT/bridge.log")
  BRIDGE_SCHEDULER="py:$HERE/policies/flaky.py:Flaky:flag=$OUT/flaky.flag,spin=$OUT/spin.flag" \
    start_bridge --policy-time-limit 600
  sleep 3   # inside its first pass, which would spin for 10 minutes
  stop_asked=$(date +%s%3N)
  kill "$BRIDGE_PID"
  for _ in $(seq 1 100); do bridge_alive || break; sleep 0.1; done
  stop_ms=$(( $(date +%s%3N) - stop_asked ))
  check '! bridge_alive && (( stop_ms < 3000 )) &&
         tail -n +"$stop_mark" "$OUT/bridge.log" | grep -q "it was still running when a stop was requested"' \
    "SIGTERM cut the stuck pass off and ended the bridge in $stop_ms ms"
  wait "$BRIDGE_PID" 2>/dev/null
  rm -f "$OUT/spin.flag"
  BRIDGE_SCHEDULER="py:$HERE/policies/flaky.py:Flaky:flag=$OUT/flaky.flag" start_bridge
  check 'wait_quiet 60 $NEVER' "once the policy is unstuck, a new bridge runs the jobs the stuck one held"
else
  say "case skipped: a Python policy on the bridge (this build has no Python bindings)"
fi

say "case: the Slurm model drives the bridge after a restart; an operator holds a queued job, a node drains and comes back"
kill "$BRIDGE_PID"; wait "$BRIDGE_PID" 2>/dev/null
model_mark=$(wc -l < "$OUT/bridge.log")
BRIDGE_SCHEDULER=backfill start_bridge
model_jobs=""
for i in $(seq 1 8); do model_jobs+=" $(submit -n 16 -t 1 --wrap "sleep 5")"; sleep 0.3; done
sleep 3
operator_held=""
for id in $model_jobs; do
  [[ "$(squeue -h -j "$id" -o %r)" == JobHeldUser ]] && { operator_held=$id; break; }
done
[[ -n "$operator_held" ]] && scontrol hold "$operator_held"
scontrol update NodeName=n3 State=DRAIN Reason=live-model; sleep 3
scontrol update NodeName=n3 State=RESUME
for i in $(seq 1 4); do model_jobs+=" $(submit -n 4 -t 1 --wrap "sleep 3")"; sleep 1; done
check 'wait_quiet 120 $NEVER $operator_held' "the Slurm model's jobs all ran but the one an operator holds ($operator_held)"
check '[[ -n "$operator_held" && "$(squeue -h -j $operator_held -o %T/%r)" == PENDING/JobHeldAdmin ]]' \
  "the job the operator held is still theirs ($(squeue -h -j "$operator_held" -o %T/%r 2>/dev/null))"
check '! tail -n +"$model_mark" "$OUT/bridge.log" | grep -q "not waiting in this cycle"' \
  "the model never proposed a job that had left its queue"
[[ -n "$operator_held" ]] && scontrol release "$operator_held"
check 'wait_quiet 60 $NEVER' "the job the operator released ran"
check 'bridge_alive' "the bridge under the Slurm model is still running"

say "final checks from Slurm's own records"
check 'bridge_alive' "the bridge never exited"
for id in $NEVER; do
  check '[[ "$(squeue -h -j $id -o %k)" == "[hetsched] never runnable:"* ]]' "job $id stays held with its reason in squeue ($(squeue -h -j $id -o %k))"
  check '! grep -q "job $id: started on" "$OUT/bridge.log"' "no bridge, restarted or not, ever released job $id"
done
kill "$BRIDGE_PID"; wait "$BRIDGE_PID" 2>/dev/null; BRIDGE_PID=""
JOBCOMP=$LAB/jobcomp.txt
# A requeued job has a record of each run; only its last is its end.
for id in $REQUEUED; do
  check '[[ "$(grep -E "^JobId=$id " "$JOBCOMP" | tail -1 | grep -o "JobState=[A-Z_]*")" == JobState=COMPLETED ]]' \
    "the requeued job $id ran again and completed ($(grep -cE "^JobId=$id " "$JOBCOMP") records)"
done
dupes=$(grep -o '^JobId=[0-9]*' "$JOBCOMP" | grep -v -w -E "JobId=($(echo $REQUEUED | tr ' ' '|'))" | sort | uniq -d | wc -l)
check '[[ $dupes -eq 0 ]]' "every job ended exactly once ($(grep -c ^JobId= "$JOBCOMP") records)"
left=$(squeue -h -o %i | grep -v -w -E "$(echo $NEVER | tr ' ' '|')" | wc -l)
check '[[ $left -eq 0 ]]' "nothing left pending or running but the never-runnable jobs ($left)"
mismatch=0 chosen_total=0
while read -r id nodes; do
  chosen=$(grep "job $id: started on" "$OUT/bridge.log" | tail -1 | sed 's/.*started on //' | tr ' ' '\n' | cut -d: -f1 | paste -sd,)
  [[ -z "$chosen" || " $SLURM_RUN " == *" $id "* ]] && continue   # Slurm ran it last
  chosen_total=$((chosen_total + 1))
  ran=$(scontrol show hostnames "$nodes" | paste -sd,)
  [[ "$ran" == "$chosen" ]] || { mismatch=$((mismatch + 1)); say "job $id chose $chosen, ran on $ran"; }
done < <(grep -o '^JobId=[0-9]* .*NodeList=[^ ]*' "$JOBCOMP" | grep -v 'JobState=CANCELLED' |
         sed -E 's/JobId=([0-9]+) .*NodeList=([^ ]*)/\1 \2/' | tac | sort -s -u -k1,1n)   # each job's last run
check '[[ $mismatch -eq 0 && $chosen_total -gt 200 ]]' "every bridge-started job ran on its chosen nodes ($chosen_total jobs, $mismatch not)"
echo "live: $passes passed, $failures failed"
[[ $failures -eq 0 ]]
