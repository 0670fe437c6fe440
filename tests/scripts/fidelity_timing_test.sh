#!/usr/bin/env bash
# fidelity.sh reads each node's answer to a job's termination from the slurmd logs: the
# time a node answered "already complete" is the line after its reply was sent (debug2),
# else the revoke line + 1 ms (its usual lead on the send), an epilog-complete message
# when one was sent, dated by the node's "completed epilog" line (its "sent" line comes
# once the controller took it in, up to 13 ms later when the controller is busy).
# Runs `fidelity.sh --timing` on made-up logs of a stored run and checks the epilog lines.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
mkdir -p "$dir/run" "$dir/slurmd-logs"
day=2026-01-01T00:00
date -d "${day}:00" +%s > "$dir/run/clock_epoch"  # local time, as the logs are
cat > "$dir/slurmctld.log" <<LOG
[${day}:00.500] slurmctld version 22.05.8 started on cluster lab
[${day}:10.090] _job_complete: JobId=5 WEXITSTATUS 0
[${day}:10.110] debug:  sched: Running job scheduler for default depth.
[${day}:10.400] sched/backfill: _attempt_backfill: beginning
[${day}:10.401] sched/backfill: _attempt_backfill: completed testing 1(1) jobs, usec=757
[${day}:20.190] _job_complete: JobId=6 WEXITSTATUS 0
[${day}:20.352] debug:  sched: Running job scheduler for default depth.
[${day}:24.120] debug:  sched: Running job scheduler for default depth.
[${day}:25.130] debug:  sched: Running job scheduler for default depth.
[${day}:30.003] debug:  sched: Running job scheduler for default depth.
[${day}:32.006] debug:  sched: Running job scheduler for default depth.
[${day}:40.011] debug:  sched: Running job scheduler for default depth.
[${day}:42.013] debug:  sched: Running job scheduler for default depth.
LOG
cat > "$dir/slurmd-logs/slurmd-n1.log" <<LOG
[${day}:10.100] debug:  _rpc_terminate_job: uid = 0 JobId=5
[${day}:10.101] debug:  credential for job 5 revoked
[${day}:10.102] debug2: No steps in jobid 5 to send signal 18
[${day}:10.114] debug2: No steps in jobid 5 to send signal 15
[${day}:10.115] debug2: set revoke expiration for jobid 5 to 1767226210 UTS
LOG
cat > "$dir/slurmd-logs/slurmd-n2.log" <<LOG
[${day}:10.103] debug:  credential for job 5 revoked
LOG
cat > "$dir/slurmd-logs/slurmd-n3.log" <<LOG
[${day}:20.200] debug:  credential for job 6 revoked
[${day}:20.300] debug2: set revoke expiration for jobid 6 to 1767226220 UTS
[${day}:20.350] debug:  JobId=6: sent epilog complete msg: rc = 0
LOG
cat > "$dir/slurmd-logs/slurmd-n4.log" <<LOG
[${day}:20.390] debug:  credential for job 7 revoked
[${day}:20.400] debug:  completed epilog for jobid 7
[${day}:20.413] debug:  JobId=7: sent epilog complete msg: rc = 0
LOG
SLURM_CONF=$dir/slurm.conf bash "$ROOT/scripts/slurm-lab/fidelity.sh" --timing "$dir/run"
got=$(grep '^epilog,' "$dir/run/controller_timing.csv")
want='epilog,10.104,5 n2 answer
epilog,10.115,5 n1 answer
epilog,20.350,6 n3 message
epilog,20.400,7 n4 message'
if [[ "$got" != "$want" ]]; then
  printf 'epilog lines differ\nwant:\n%s\ngot:\n%s\n' "$want" "$got" >&2
  exit 1
fi
grep -q '^main_pass,10.110,default$' "$dir/run/controller_timing.csv" ||
  { echo "main pass not read" >&2; cat "$dir/run/controller_timing.csv" >&2; exit 1; }
# The pass 2 ms after n3's epilog-complete message is that RPC's, not the loop's, though it
# comes 10 s after the loop's last; the pass at 24.120 is the loop's, the one at 25.130
# (sooner than batch_sched_delay after it) is not. The loop read time() just before its
# pass logged at 30.003 (in second 29), so its next pass can come at 32.006; one logged at
# 40.011 read second 40, so the pass at 42.013 is not the loop's.
loop=$(tr '\n' ' ' < "$dir/run/loop_ticks.txt")
agent=$(tr '\n' ' ' < "$dir/run/agent_passes.txt")
[[ "$loop" == "10110000 24120000 30003000 32006000 40011000 " &&
   "$agent" == "20352000 25130000 42013000 " ]] ||
  { echo "passes split wrong: loop '$loop', outside the loop '$agent'" >&2; exit 1; }
echo "fidelity timing: epilog answers and passes read from the logs as expected"
