#!/usr/bin/env bash
# Writes jobs.csv of a fixed set of replays (every window scheduler and the heuristic pairs
# on the documents' workloads, an SDSC-SP2 prefix and the example workloads) into OUT/<case>/,
# so that two builds can be compared byte for byte:
#   scripts/schedule_snapshot.sh BIN OUT [SDSC_PREFIX_SWF]
#   diff -r OUT_BEFORE OUT_AFTER   (only jobs.csv is kept)
set -euo pipefail
bin=$1
out=$2
sdsc=${3:-}
here=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$out"

run() {  # case-name cluster workload scheduler [extra simulate args...]
  local name=$1 cluster=$2 workload=$3 sched=$4
  shift 4
  local dir="$out/$name"
  "$bin" simulate --cluster "$cluster" --workload "$workload" --scheduler "$sched" --out "$dir.tmp" "$@" \
    > /dev/null
  mkdir -p "$dir"
  mv "$dir.tmp/jobs.csv" "$dir/jobs.csv"
  rm -rf "$dir.tmp"
}

for s in ipsched aucsched1 aucsched2 aucsched3; do
  run "esp-het-$s" paper1024 esp-het "$s"
  run "esp-het-none-$s" paper1024 esp-het "$s" --opt starvation=none
  run "tsubame600-$s" tsubame2 tsubame:jobs=600 "$s"
  run "tree1024-$s" tree1024 tree1024 "$s"
  run "lab-mix-$s" "$here/examples/clusters/small-tree/slurm.conf" \
    "$here/examples/workloads/lab-mix-v-78.jobs" "$s"
  run "synthetic-M-$s" M synthetic "$s" --opt starvation=none
  if [[ -n "$sdsc" ]]; then run "sdsc-$s" sdsc-sp2 "$sdsc" "$s"; fi
done
for s in fifo+ff+walltime easy+ff+walltime easy+balanced+walltime prb+ff+walltime easy+ff+datadriven; do
  run "eurora-$s" eurora eurora:days=3 "$s"
  if [[ -n "$sdsc" ]]; then run "sdsc-$s" sdsc-sp2 "$sdsc" "$s"; fi
done
