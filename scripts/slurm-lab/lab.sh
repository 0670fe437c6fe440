#!/usr/bin/env bash
# A real Slurm 22.05 cluster on this machine: one slurmctld and one slurmd per simulated node
# (Debian's multiple-slurmd build), fake GPUs, everything under one scratch directory.
#   lab.sh start [NODES] [CORES_PER_NODE] [GPUS_PER_NODE]   (default 8 8 2)
#   lab.sh stop | env | restart-controller
# HETSCHED_LAB (directory) and LAB_PORT_BASE let a second lab run beside the first.
# LAB_JOB_SUBMIT_LUA=FILE installs FILE as the controller's job_submit.lua (JobSubmitPlugins=lua).
# LAB_SELECT_PARAMS (default CR_Core, e.g. CR_Core_Memory) and LAB_EXTRA_CONF (extra
# slurm.conf lines, e.g. DefMemPerCPU=250) vary the configuration; LAB_PARTITIONS (lines)
# replaces the one partition `lab` of all nodes; LAB_NODE_FEATURES=F:K gives nodes n1..nK
# the node feature F (for -C); LAB_THREADS_PER_CORE (default 1) sets the nodes' ThreadsPerCore.
# LAB_POWER_SAVE=1 turns Slurm's power saving on: powering a node down stops its slurmd,
# resuming it starts the slurmd again (no node powers down by itself within an hour).
# After `start`, `source <(lab.sh env)` points sbatch/squeue/sacct at the lab.
# Needs root and the packages slurmctld slurmd slurm-client munge (scripts/slurm-lab/install.sh).
set -euo pipefail
LAB=${HETSCHED_LAB:-/tmp/hetsched-slurm-lab}
# Two labs may run side by side with different HETSCHED_LAB and LAB_PORT_BASE (default
# 17000: slurmctld on BASE-183, node daemons on BASE+1...).
PORT_BASE=${LAB_PORT_BASE:-17000}
HOST=$(hostname)

# The NodeName lines: nodes n1..nK carry the feature F when LAB_NODE_FEATURES=F:K.
node_lines() {
  local nodes=$1 half=$2 gpus=$3 spec=${LAB_NODE_FEATURES:-} featured=0 first=1
  local feature=${spec%%:*}
  [[ -n "$spec" ]] && featured=$(( ${spec##*:} < nodes ? ${spec##*:} : nodes ))
  local common="NodeHostname=$HOST NodeAddr=127.0.0.1 Sockets=2 CoresPerSocket=$half ThreadsPerCore=${LAB_THREADS_PER_CORE:-1} RealMemory=4000 Gres=gpu:$gpus"
  if (( featured > 0 )); then
    echo "NodeName=n[1-$featured] $common Port=[$(( PORT_BASE + 1 ))-$(( PORT_BASE + featured ))] Features=$feature"
    first=$(( featured + 1 ))
  fi
  (( first <= nodes )) &&
    echo "NodeName=n[$first-$nodes] $common Port=[$(( PORT_BASE + first ))-$(( PORT_BASE + nodes ))]"
  return 0
}

# Power saving's programs (run by slurmctld with a host list) and slurm.conf lines.
power_save_conf() {
  local slurmd_bin; slurmd_bin=$(command -v slurmd)
  cat > "$LAB/power-suspend.sh" <<SCRIPT
#!/bin/bash
for h in \$(SLURM_CONF="$LAB/slurm.conf" scontrol show hostnames "\$1"); do
  pid=\$(cat "$LAB/slurmd-\$h.pid" 2>/dev/null) && kill "\$pid" 2>/dev/null
done
exit 0
SCRIPT
  cat > "$LAB/power-resume.sh" <<SCRIPT
#!/bin/bash
for h in \$(SLURM_CONF="$LAB/slurm.conf" scontrol show hostnames "\$1"); do
  # slurmctld runs this with its signals blocked (a slurmd started so never finishes starting)
  # and takes the node as resumed only once it reports a boot after the request: the slurmd
  # gets a clean signal mask and a time namespace whose uptime starts 2 s after the request
  # (Slurm compares whole seconds).
  sleep 2
  up=\$(cut -d. -f1 /proc/uptime)
  unshare --time --boottime "-\$up" \\
    perl -e 'use POSIX; sigprocmask(SIG_SETMASK, POSIX::SigSet->new); exec @ARGV' \\
    "$slurmd_bin" -f "$LAB/slurm.conf" -N "\$h" </dev/null >/dev/null 2>&1
done
exit 0
SCRIPT
  chmod 755 "$LAB/power-suspend.sh" "$LAB/power-resume.sh"
  printf '%s\n' "SuspendProgram=$LAB/power-suspend.sh" "ResumeProgram=$LAB/power-resume.sh" \
    SuspendTime=3600 SuspendTimeout=5 ResumeTimeout=60 SlurmctldParameters=power_save_interval=2
}

write_conf() {
  local nodes=$1 cores=$2 gpus=$3 half=$(( $2 / 2 ))
  mkdir -p "$LAB"/{state,log,gpu}
  for n in $(seq 1 "$nodes"); do mkdir -p "$LAB/spool/n$n"; done
  for g in $(seq 0 $(( gpus - 1 ))); do ln -sf /dev/null "$LAB/gpu/nvidia$g"; done
  cat > "$LAB/slurm.conf" <<CONF
ClusterName=hetsched-lab
SlurmctldHost=$HOST(127.0.0.1)
SlurmUser=root
SlurmdUser=root
SlurmctldPort=$(( PORT_BASE - 183 ))
SlurmdPort=$(( PORT_BASE + 1 ))
AuthType=auth/munge
StateSaveLocation=$LAB/state
SlurmdSpoolDir=$LAB/spool/%n
SlurmctldPidFile=$LAB/slurmctld.pid
SlurmdPidFile=$LAB/slurmd-%n.pid
SlurmctldLogFile=$LAB/log/slurmctld.log
SlurmdLogFile=$LAB/log/slurmd-%n.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/filetxt
JobCompLoc=$LAB/jobcomp.txt
SlurmdParameters=config_overrides
MpiDefault=none
ReturnToService=2
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=${LAB_SELECT_PARAMS:-CR_Core}
${LAB_EXTRA_CONF:-}
$( [[ "${LAB_POWER_SAVE:-0}" == 1 ]] && power_save_conf )
$( [[ -n "${LAB_JOB_SUBMIT_LUA:-}" ]] && echo "JobSubmitPlugins=lua" )
GresTypes=gpu
$(node_lines "$nodes" "$half" "$gpus")
${LAB_PARTITIONS:-PartitionName=lab Nodes=n[1-$nodes] Default=YES MaxTime=INFINITE State=UP}
CONF
  [[ -n "${LAB_JOB_SUBMIT_LUA:-}" ]] && cp "$LAB_JOB_SUBMIT_LUA" "$LAB/job_submit.lua"
  if (( gpus > 0 )); then
    echo "AutoDetect=off" > "$LAB/gres.conf"
    echo "NodeName=n[1-$nodes] Name=gpu File=$LAB/gpu/nvidia[0-$(( gpus - 1 ))]" >> "$LAB/gres.conf"
  else
    : > "$LAB/gres.conf"
  fi
}

# Starts munged unless a working one runs. A munged started by a lab is recorded in
# MUNGE_OWNED, and the last lab to stop ends it by that pid. A munged that is still shutting
# down (it takes about 2 s after SIGTERM) looks alive but will not serve: it is waited out.
MUNGE_OWNED=/run/munge/hetsched-lab.pid
munge_works() { munge -n 2>/dev/null | unmunge >/dev/null 2>&1; }
start_munge() {
  mkdir -p /run/munge && chown munge:munge /run/munge
  if pgrep -x munged >/dev/null; then
    munge_works && return 0
    for _ in $(seq 1 100); do pgrep -x munged >/dev/null || break; sleep 0.1; done
    pgrep -x munged >/dev/null && { echo "a munged runs but does not answer" >&2; return 1; }
  fi
  runuser -u munge -- /usr/sbin/munged
  for _ in $(seq 1 50); do
    [[ -s /run/munge/munged.pid ]] && munge_works &&
      { cp /run/munge/munged.pid "$MUNGE_OWNED"; return 0; }
    sleep 0.1
  done
  echo "munged did not start" >&2
  return 1
}

stop_owned_munge() {  # by its pid, waiting until it has exited
  local pid
  pid=$(cat "$MUNGE_OWNED")
  rm -f "$MUNGE_OWNED"
  kill "$pid" 2>/dev/null || return 0
  for _ in $(seq 1 100); do kill -0 "$pid" 2>/dev/null || return 0; sleep 0.1; done
  kill -9 "$pid" 2>/dev/null || true
}

# The lab's TCP ports: the controller's, then one per node.
lab_ports() {  # NODES
  echo $(( PORT_BASE - 183 ))
  seq $(( PORT_BASE + 1 )) $(( PORT_BASE + $1 ))
}

# Ports in the kernel's ephemeral range can be taken at any moment by an outgoing connection
# (a client's local port), and a daemon that cannot bind its port never registers.
warn_if_ephemeral() {  # NODES
  local low high port
  read -r low high < /proc/sys/net/ipv4/ip_local_port_range 2>/dev/null || return 0
  for port in $(lab_ports "$1"); do
    if (( port >= low && port <= high )); then
      echo "warning: lab port $port lies in the ephemeral port range $low-$high; an outgoing" \
        "connection may hold it (choose LAB_PORT_BASE below $(( low - 1 - $1 )))" >&2
      return 0
    fi
  done
}

# Lab ports some socket other than the lab's daemons holds (a daemon there could not bind).
report_taken_ports() {  # NODES
  local port holders
  for port in $(lab_ports "$1"); do
    holders=$(ss -Htanp "( sport = :$port )" 2>/dev/null | grep 'users:' |
      grep -v '"slurmctld"\|"slurmd"' | awk '{print $1, $NF}' | sort -u | paste -sd ' ' || true)
    [[ -n "$holders" ]] && echo "  port $port is held by: $holders" >&2
  done
  return 0
}

# Why a lab did not come up, on stderr: munge, taken ports, the nodes' states, the logs.
explain_failure() {  # NODES
  echo "lab did not come up; see $LAB/log" >&2
  munge_works || echo "  munge does not answer" >&2
  report_taken_ports "$1"
  timeout 5 sinfo -N -h -o '  %N %T %E' >&2 2>&1 || echo "  slurmctld does not answer" >&2
  tail -n 15 "$LAB/log/slurmctld.log" 2>/dev/null | sed 's/^/  slurmctld: /' >&2
  local node
  for node in $(timeout 5 sinfo -N -h -t unknown,down,no_respond -o %N 2>/dev/null | sort -u); do
    tail -n 5 "$LAB/log/slurmd-$node.log" 2>/dev/null | sed "s/^/  slurmd $node: /" >&2
  done
}

start_once() {  # NODES CORES GPUS
  local nodes=$1 cores=$2 gpus=$3
  stop >/dev/null 2>&1 || true
  rm -rf "$LAB"
  write_conf "$nodes" "$cores" "$gpus"
  warn_if_ephemeral "$nodes"
  start_munge || return 1
  export SLURM_CONF=$LAB/slurm.conf
  slurmctld -f "$SLURM_CONF"
  for n in $(seq 1 "$nodes"); do slurmd -f "$SLURM_CONF" -N "n$n"; done
  for _ in $(seq 1 60); do
    local idle
    idle=$(timeout 5 sinfo -h -t idle -o %D 2>/dev/null || true)
    [[ "$idle" == "$nodes" ]] && { echo "lab up: $nodes nodes x ($cores cores, $gpus gpus) in $LAB"; return 0; }
    sleep 1
  done
  explain_failure "$nodes"
  return 1
}

# A lab that does not come up is stopped and started once more (after saying why).
start() {
  local nodes=${1:-8} cores=${2:-8} gpus=${3:-2}
  start_once "$nodes" "$cores" "$gpus" && return 0
  echo "starting the lab once more" >&2
  start_once "$nodes" "$cores" "$gpus"
}

restart_controller() {  # stops slurmctld by its pid, waits ${1:-5} s, starts it again
  export SLURM_CONF=$LAB/slurm.conf
  local pid
  pid=$(cat "$LAB/slurmctld.pid")
  kill "$pid"
  for _ in $(seq 1 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  sleep "${1:-5}"
  slurmctld -f "$SLURM_CONF"
  for _ in $(seq 1 30); do timeout 5 scontrol ping >/dev/null 2>&1 && return 0; sleep 1; done
  echo "slurmctld did not come back" >&2
  return 1
}

stop() {
  for pid_file in "$LAB"/slurmd-*.pid "$LAB"/slurmctld.pid; do
    [[ -f "$pid_file" ]] && kill "$(cat "$pid_file")" 2>/dev/null || true
  done
  sleep 2
  for pid_file in "$LAB"/slurmd-*.pid "$LAB"/slurmctld.pid; do
    [[ -f "$pid_file" ]] && kill -9 "$(cat "$pid_file")" 2>/dev/null || true
  done
  pkill -9 -f "slurmd -f $LAB/slurm.conf" 2>/dev/null || true
  # Job step daemons the lab's slurmds left behind: found by the lab's SLURM_CONF in their
  # environment, stopped by pid.
  for pid in $(pgrep -x slurmstepd 2>/dev/null); do
    tr '\0' '\n' < "/proc/$pid/environ" 2>/dev/null | grep -qx "SLURM_CONF=$LAB/slurm.conf" &&
      kill -9 "$pid" 2>/dev/null
  done
  # A slurmctld killed a moment ago may linger as a zombie until it is reaped: not a user of munge.
  [[ -f "$MUNGE_OWNED" ]] && ! pgrep -x -r D,R,S,T slurmctld >/dev/null && stop_owned_munge
  echo "lab stopped"
}

case "${1:-}" in
  start) shift; start "$@" ;;
  stop) stop ;;
  env) echo "export SLURM_CONF=$LAB/slurm.conf" ;;
  restart-controller) shift; restart_controller "$@" ;;
  *) echo "usage: $0 start [NODES] [CORES] [GPUS] | stop | env | restart-controller [PAUSE]" >&2; exit 2 ;;
esac
