#!/usr/bin/env bash
# Captures a real Slurm accounting dump from a lab run (issue 18):
#   accounting-capture.sh OUTDIR
# Starts a private MariaDB and slurmdbd (Debian's mariadb-server and slurmdbd packages; sacct
# reads only slurmdbd's database), a lab of 8 x (8 cores, 2 GPUs, 4000 MB) with CR_Core_Memory
# and accounting to that slurmdbd, submits ~60 sleep jobs (GPUs, --mem, an array, one job
# cancelled while pending, one that runs past its 1-minute limit), waits for the queue to
# drain, and writes OUTDIR/sacct.txt (the command of docs/input-formats.md without -X, so the
# steps are there to be skipped), OUTDIR/slurm.conf and OUTDIR/gres.conf (the lab's), and
# OUTDIR/submitted.txt (every sbatch line). Every daemon it started is stopped by pid on exit.
# HETSCHED_LAB and LAB_PORT_BASE as for lab.sh; MariaDB listens on BASE-181, slurmdbd on BASE-182.
set -euo pipefail
OUT=${1:?usage: accounting-capture.sh OUTDIR}
HERE=$(cd "$(dirname "$0")" && pwd)
export HETSCHED_LAB=${HETSCHED_LAB:-/tmp/hetsched-accounting-lab}
export LAB_PORT_BASE=${LAB_PORT_BASE:-27000}
DB=$HETSCHED_LAB-db   # outside the lab directory: lab.sh start wipes that
DB_PORT=$(( LAB_PORT_BASE - 181 ))
DBD_PORT=$(( LAB_PORT_BASE - 182 ))
for tool in slurmdbd mariadbd mariadb-install-db sacctmgr; do
  command -v "$tool" >/dev/null || [[ -x /usr/sbin/$tool ]] || {
    echo "accounting-capture.sh: $tool missing; apt-get install slurmdbd mariadb-server" >&2
    exit 2
  }
done
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)

stop_pid_file() {
  local f=$1
  [[ -s "$f" ]] || return 0
  local pid
  pid=$(cat "$f")
  kill "$pid" 2>/dev/null || return 0
  for _ in $(seq 1 100); do kill -0 "$pid" 2>/dev/null || return 0; sleep 0.1; done
  kill -9 "$pid" 2>/dev/null || true
}

cleanup() {
  bash "$HERE/lab.sh" stop || true
  stop_pid_file "$DB/slurmdbd.pid"
  stop_pid_file "$DB/mariadb.pid"
  bash "$HERE/lab.sh" stop >/dev/null || true  # munged, once no controller is left
}
trap cleanup EXIT

start_mariadb() {
  rm -rf "$DB"
  mkdir -p "$DB/data" "$DB/log"
  mariadb-install-db --no-defaults --user=root --datadir="$DB/data" --auth-root-authentication-method=normal \
    >"$DB/log/install.log" 2>&1
  /usr/sbin/mariadbd --no-defaults --user=root --datadir="$DB/data" --socket="$DB/mysql.sock" \
    --bind-address=127.0.0.1 --port="$DB_PORT" --pid-file="$DB/mariadb.pid" \
    --log-error="$DB/log/mariadb.log" --skip-name-resolve --innodb-buffer-pool-size=64M &
  for _ in $(seq 1 60); do
    mariadb --no-defaults --socket="$DB/mysql.sock" -uroot -e 'select 1' >/dev/null 2>&1 && break
    sleep 0.5
  done
  mariadb --no-defaults --socket="$DB/mysql.sock" -uroot <<SQL
CREATE USER 'slurm'@'127.0.0.1' IDENTIFIED BY 'lab';
GRANT ALL ON slurm_acct_db.* TO 'slurm'@'127.0.0.1';
SQL
}

start_slurmdbd() {
  cat > "$DB/slurmdbd.conf" <<CONF
AuthType=auth/munge
DbdHost=localhost
DbdAddr=127.0.0.1
DbdPort=$DBD_PORT
SlurmUser=root
PidFile=$DB/slurmdbd.pid
LogFile=$DB/log/slurmdbd.log
StorageType=accounting_storage/mysql
StorageHost=127.0.0.1
StoragePort=$DB_PORT
StorageUser=slurm
StoragePass=lab
StorageLoc=slurm_acct_db
CONF
  chmod 600 "$DB/slurmdbd.conf"
  SLURM_CONF=$DB/slurm.conf slurmdbd   # reads slurmdbd.conf beside SLURM_CONF
  for _ in $(seq 1 60); do
    [[ -s "$DB/slurmdbd.pid" ]] && grep -q "slurmdbd version .* started" "$DB/log/slurmdbd.log" 2>/dev/null && return 0
    sleep 0.5
  done
  echo "slurmdbd did not start; see $DB/log/slurmdbd.log" >&2
  return 1
}

start_lab() {
  export LAB_SELECT_PARAMS=CR_Core_Memory
  export LAB_EXTRA_CONF="AccountingStorageType=accounting_storage/slurmdbd
AccountingStorageHost=127.0.0.1
AccountingStoragePort=$DBD_PORT
AccountingStorageTRES=gres/gpu"
  bash "$HERE/lab.sh" start 8 8 2
  export SLURM_CONF=$HETSCHED_LAB/slurm.conf
  sacctmgr -i add cluster hetsched-lab >/dev/null 2>&1 || true
  sacctmgr -i add account lab Cluster=hetsched-lab >/dev/null 2>&1 || true
  sacctmgr -i add user root Account=lab Cluster=hetsched-lab >/dev/null 2>&1 || true
}

submit() {  # submit "sbatch options" SECONDS
  local opts=$1 secs=$2
  echo "$opts --wrap 'sleep $secs'" >> "$OUT/submitted.txt"
  # shellcheck disable=SC2086
  sbatch --parsable -o /dev/null $opts --wrap "sleep $secs"
}

# A fixed, deterministic mix: request shapes cycle, run times and memory follow from the index.
submit_jobs() {
  : > "$OUT/submitted.txt"
  local shapes=(
    "-n 1" "-n 4" "-N 1 -n 8" "-N 2 --ntasks-per-node=8" "-N 1 -n 2 --gres=gpu:1"
    "-N 1 -n 4 --gres=gpu:2" "-N 2 --ntasks-per-node=2 --gres=gpu:1" "-n 12"
    "-N 4 --ntasks-per-node=4 --gres=gpu:2" "-N 1 -n 6 --gres=gpu:1" "-n 3" "-N 3 --ntasks-per-node=8"
  )
  for i in $(seq 0 47); do
    local shape=${shapes[$(( i % ${#shapes[@]} ))]}
    local secs=$(( 5 + (i * 37) % 56 ))
    local mem=$(( 200 + (i * 290) % 3000 ))
    submit "$shape --mem=${mem}M -t 2 -J j$i" "$secs" >/dev/null
    (( i == 20 )) && submit "-N 8 --ntasks-per-node=8 --mem=3500M -t 2 -J array --array=1-6" 20 >/dev/null
    (( i == 25 )) && submit "-n 1 --mem=300M -t 1 -J timeout" 240 >/dev/null
    # Cancelled while pending: it waits for the whole machine. (A held job, never eligible,
    # would not appear in sacct's time window at all.)
    (( i == 30 )) && { local waiting; waiting=$(submit "-N 8 --ntasks-per-node=8 --mem=1000M -t 2 -J cancelled" 30); sleep 3; scancel "$waiting"; }
    sleep $(( 1 + i % 5 ))
  done
}

wait_for_empty_queue() {
  for _ in $(seq 1 900); do
    [[ -z "$(squeue -h -o %i 2>/dev/null)" ]] && return 0
    sleep 2
  done
  echo "queue did not drain" >&2
  return 1
}

dump() {
  sleep 10  # the controller sends the last records to slurmdbd
  sacct -a --parsable2 -S now-2hours -E now \
    --format=JobID,JobIDRaw,JobName,User,Account,Partition,QOS,Submit,Eligible,Start,End,Elapsed,Timelimit,State,NNodes,NCPUS,ReqCPUS,ReqMem,ReqTRES,AllocTRES,ReqNodes,NodeList,Constraints,Flags \
    > "$OUT/sacct.txt"
  cp "$HETSCHED_LAB/slurm.conf" "$HETSCHED_LAB/gres.conf" "$OUT/"
  cp "$HETSCHED_LAB/jobcomp.txt" "$OUT/jobcomp.txt" 2>/dev/null || true
  echo "dump: $(wc -l < "$OUT/sacct.txt") lines in $OUT/sacct.txt"
}

start_mariadb
start_slurmdbd
start_lab
submit_jobs
wait_for_empty_queue
dump
