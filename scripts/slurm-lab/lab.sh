#!/usr/bin/env bash
# A real Slurm 22.05 cluster on this machine: one slurmctld and one slurmd per simulated node
# (Debian's multiple-slurmd build), fake GPUs, everything under one scratch directory.
#   lab.sh start [NODES] [CORES_PER_NODE] [GPUS_PER_NODE]   (default 8 8 2)
#   lab.sh stop | env
# LAB_SELECT_PARAMS (default CR_Core, e.g. CR_Core_Memory) and LAB_EXTRA_CONF (extra
# slurm.conf lines, e.g. DefMemPerCPU=250) vary the configuration.
# After `start`, `source <(lab.sh env)` points sbatch/squeue/sacct at the lab.
# Needs root and the packages slurmctld slurmd slurm-client munge (scripts/slurm-lab/install.sh).
set -euo pipefail
LAB=${HETSCHED_LAB:-/tmp/hetsched-slurm-lab}
HOST=$(hostname)

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
SlurmctldPort=16817
SlurmdPort=17001
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
GresTypes=gpu
NodeName=n[1-$nodes] NodeHostname=$HOST NodeAddr=127.0.0.1 Port=[17001-$(( 17000 + nodes ))] Sockets=2 CoresPerSocket=$half ThreadsPerCore=1 RealMemory=4000 Gres=gpu:$gpus
PartitionName=lab Nodes=n[1-$nodes] Default=YES MaxTime=INFINITE State=UP
CONF
  if (( gpus > 0 )); then
    echo "AutoDetect=off" > "$LAB/gres.conf"
    echo "NodeName=n[1-$nodes] Name=gpu File=$LAB/gpu/nvidia[0-$(( gpus - 1 ))]" >> "$LAB/gres.conf"
  else
    : > "$LAB/gres.conf"
  fi
}

start_munge() {
  mkdir -p /run/munge && chown munge:munge /run/munge
  pgrep -x munged >/dev/null || runuser -u munge -- /usr/sbin/munged
}

start() {
  local nodes=${1:-8} cores=${2:-8} gpus=${3:-2}
  stop >/dev/null 2>&1 || true
  rm -rf "$LAB"
  write_conf "$nodes" "$cores" "$gpus"
  start_munge
  export SLURM_CONF=$LAB/slurm.conf
  slurmctld -f "$SLURM_CONF"
  for n in $(seq 1 "$nodes"); do slurmd -f "$SLURM_CONF" -N "n$n"; done
  for _ in $(seq 1 60); do
    local idle
    idle=$(timeout 5 sinfo -h -t idle -o %D 2>/dev/null || true)
    [[ "$idle" == "$nodes" ]] && { echo "lab up: $nodes nodes x ($cores cores, $gpus gpus) in $LAB"; return 0; }
    sleep 1
  done
  echo "lab did not come up; see $LAB/log" >&2
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
  echo "lab stopped"
}

case "${1:-}" in
  start) shift; start "$@" ;;
  stop) stop ;;
  env) echo "export SLURM_CONF=$LAB/slurm.conf" ;;
  *) echo "usage: $0 start [NODES] [CORES] [GPUS] | stop | env" >&2; exit 2 ;;
esac
