#!/usr/bin/env bash
# The fidelity suite: each workload on a freshly started real Slurm lab (fidelity.sh, jobs
# submitted at their file times) and on the model with the real controller's clock, then a
# report per workload. Takes real time (9-13 minutes per workload), so by default
# it detaches and returns at once:
#   fidelity-suite.sh OUTDIR [WORKLOAD...]     runs in the background; OUTDIR/suite.log
#   fidelity-suite.sh --fg OUTDIR [WORKLOAD...]  runs in the foreground
#   fidelity-suite.sh --report DIR             (re)writes DIR/report.md of one finished run
#   fidelity-suite.sh --table DIR...           a results-table row per finished workload
#   fidelity-suite.sh --check DIR              fails when DIR misses a target of issue 17
#   fidelity-suite.sh --list                   the workloads
#   fidelity-suite.sh --compare-real RUN_A RUN_B  two real runs of one job file compared as
#                                              model and real are (node sets, starts, aggregates)
# Without WORKLOAD names every workload but `short` runs; `short` is the one-workload
# version (about 7 minutes, the live test's). Uses its own lab: HETSCHED_LAB (default
# /tmp/hetsched-fidelity-lab) and LAB_PORT_BASE (default 29000). OUTDIR/summary.md
# gathers the reports. The model replays each run on the real controller's clock
# (fidelity.sh passes --opt clock=controller,controller_start=S,wall_clock=EPOCH
# [,startup_pass=P]) and the submit times the controller recorded; MODEL_CLOCK=grid runs
# the model's default clock instead, for comparison.
set -uo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
export HETSCHED=${HETSCHED:-$ROOT/build/hetsched}
export HETSCHED_LAB=${HETSCHED_LAB:-/tmp/hetsched-fidelity-lab}
export LAB_PORT_BASE=${LAB_PORT_BASE:-29000}
export MODEL_CLOCK=${MODEL_CLOCK:-real}
# SUITE_SEED_OFFSET=K adds K to every workload's seed: the same shapes of workload with job
# files the model was never looked at on (the defaults' seeds are the ones the rules were
# traced on).
SEED_OFFSET=${SUITE_SEED_OFFSET:-0}
[[ $SEED_OFFSET =~ ^[0-9]+$ ]] || { echo "fidelity-suite.sh: SUITE_SEED_OFFSET must be a whole number, got '$SEED_OFFSET'" >&2; exit 2; }
source "$HERE/replay-lib.sh"  # NODE_SET_AWK
source "$HERE/ties-lib.sh"    # first_difference, TIE_ANSWER_MS
LOG_CONF=${FIDELITY_LOG_CONF:-$'DebugFlags=Backfill\nSlurmctldDebug=debug\nSlurmdDebug=debug2'}

# name | nodes cores gpus [threads per core] | SelectTypeParameters | extra slurm.conf lines (\n; PartitionName
# lines replace lab.sh's one partition) | generator | seed | post-processing of the job file
# (post_process: mem, half-partition, scale=K, ranges, node-limits)
WORKLOADS=(
  "short|16 8 2|CR_Core||synthetic:mix=V,hours=0.067,runtime_min=20,runtime_max=90,arrival_mean=6|1"
  "staggered-v|16 8 2|CR_Core||synthetic:mix=V,hours=0.085,runtime_min=10,runtime_max=80,max_fraction=0.0625,arrival_mean=4|2"
  "burst-v|16 8 2|CR_Core||synthetic:mix=V,hours=0.085,runtime_min=10,runtime_max=80,max_fraction=0.0625,arrival_mean=1|3"
  "staggered-i|16 8 2|CR_Core||synthetic:mix=I,hours=0.125,runtime_min=10,runtime_max=80,arrival_mean=4|4"
  "staggered-iii|16 8 2|CR_Core||synthetic:mix=III,hours=0.125,runtime_min=10,runtime_max=80,arrival_mean=4|5"
  "multifactor-v|16 8 2|CR_Core|PriorityType=priority/multifactor\nPriorityWeightAge=1000\nPriorityWeightJobSize=1000\nPriorityMaxAge=1000|synthetic:mix=V,hours=0.085,runtime_min=10,runtime_max=80,max_fraction=0.0625,arrival_mean=4|6"
  "memory-iii|16 8 2|CR_Core_Memory||synthetic:mix=III,hours=0.125,runtime_min=10,runtime_max=80,arrival_mean=4|7|mem"
  "partitions-v|16 8 2|CR_Core|PartitionName=all Nodes=n[1-16] Default=YES MaxTime=INFINITE State=UP\nPartitionName=half Nodes=n[9-16] MaxTime=INFINITE State=UP|synthetic:mix=V,hours=0.085,runtime_min=10,runtime_max=80,max_fraction=0.0625,arrival_mean=4|8|half-partition"
  "esp-het|16 8 2|CR_Core||esp-het|9|scale=40"
  "staggered-ii|16 8 2|CR_Core||synthetic:mix=II,hours=0.125,runtime_min=10,runtime_max=80,arrival_mean=4|10"
  "staggered-iv|16 8 2|CR_Core||synthetic:mix=IV,hours=0.125,runtime_min=10,runtime_max=80,arrival_mean=4|11"
  "ranges-v|16 8 2|CR_Core||synthetic:mix=V,hours=0.085,runtime_min=10,runtime_max=80,max_fraction=0.0625,arrival_mean=4|12|ranges"
  "threads-v|16 8 2 2|CR_Core||synthetic:mix=V,hours=0.085,runtime_min=10,runtime_max=80,max_fraction=0.0625,arrival_mean=4|13|ranges"
  "node-limits-v|16 8 2|CR_Core|PartitionName=all Nodes=n[1-16] Default=YES MaxTime=INFINITE State=UP\nPartitionName=narrow Nodes=n[1-16] MaxNodes=1 MaxTime=INFINITE State=UP\nPartitionName=wide Nodes=n[1-16] MinNodes=2 MaxTime=INFINITE State=UP|synthetic:mix=V,hours=0.085,runtime_min=10,runtime_max=80,max_fraction=0.0625,arrival_mean=4|14|node-limits"
)

field() { local IFS='|'; local parts=($1); echo "${parts[$2]:-}"; }

# Job-file variations the generators do not write (deterministic, by job id):
#   mem             --mem per node of 500-3500 MB (nodes have RealMemory=4000)
#   half-partition  every third job in partition `half`
#   ranges          node ranges: -N k (k >= 2) becomes -N ceil(k/2)-k, and every even job
#                   without -N gets -N 1-min(4,n); --ntasks-per-node jobs stay as they are
#   node-limits     jobs without -N: even ids in partition `narrow` (MaxNodes=1), odd ones in
#                   `wide` (MinNodes=2)
#   scale=K         submit times, run times and limits divided by K (run times and limits
#                   rounded up to whole seconds, at least 1)
post_process() {  # $1: rule, stdin -> stdout
  awk -v rule="$1" 'function up(x) { return (x == int(x)) ? x : int(x) + 1 }
    /^#/ { print; next }
    rule == "mem" { print $0 " --mem=" 500 * (1 + ($1 * 5) % 7) "M"; next }
    rule == "half-partition" { if ($1 % 3 == 0) $3 = $3 " partition=half"; print; next }
    rule == "node-limits" && !/ -N / { $3 = $3 " partition=" ($1 % 2 == 0 ? "narrow" : "wide"); print; next }
    rule == "ranges" && !/--ntasks-per-node/ { tasks = 1; nodes = 0
      for (i = 4; i < NF; ++i) { if ($i == "-n") tasks = $(i + 1); if ($i == "-N") nodes = i + 1 }
      if (nodes) { k = $nodes; sub(/-$/, "", k); if (k >= 2) $nodes = int((k + 1) / 2) "-" k }
      else if ($1 % 2 == 0 && tasks >= 2) $0 = $0 " -N 1-" (tasks < 4 ? tasks : 4)
      print; next }
    rule ~ /^scale=/ { k = substr(rule, 7); $2 = int($2 / k); $3 = up($3 / k); if ($3 < 1) $3 = 1
      for (i = 4; i < NF; ++i) if ($i == "-t") { split($(i + 1), p, ":")
        t = up((p[1] * 3600 + p[2] * 60 + p[3]) / k); if (t < 1) t = 1
        $(i + 1) = sprintf("%02d:%02d:%02d", int(t / 3600), int(t % 3600 / 60), t % 60) }
      print; next }
    { print }'
}

# Lab configuration of a workload: LAB_PARTITIONS from its PartitionName lines, the rest
# (and the debug logging fidelity.sh reads) as LAB_EXTRA_CONF.
lab_start() {  # $1: shape, $2: SelectTypeParameters, $3: extra lines (\n-escaped)
  local lines shape threads
  lines=$(printf '%b' "$3")
  read -r -a shape <<< "$1"
  threads=${shape[3]:-${LAB_THREADS_PER_CORE:-1}}
  LAB_THREADS_PER_CORE=$threads LAB_SELECT_PARAMS=$2 \
    LAB_PARTITIONS=$(grep '^PartitionName=' <<< "$lines") \
    LAB_EXTRA_CONF="$LOG_CONF"$'\n'"$(grep -v '^PartitionName=' <<< "$lines")" \
    bash "$HERE/lab.sh" start "${shape[@]:0:3}"
}

run_workload() {  # $1: suite OUTDIR, $2: workload line
  local name shape select extra spec seed post out
  name=$(field "$2" 0); shape=$(field "$2" 1); select=$(field "$2" 2)
  extra=$(field "$2" 3); spec=$(field "$2" 4); seed=$(field "$2" 5); post=$(field "$2" 6)
  seed=$((seed + SEED_OFFSET))
  out=$1/$name
  rm -rf "$out" && mkdir -p "$out"
  echo "$(date -Is) $name: lab $shape $select; $spec seed $seed${post:+, $post}"
  lab_start "$shape" "$select" "$extra" ||
    { cp -r "$HETSCHED_LAB/log" "$out/lab-log" 2>/dev/null; return 1; }
  local rc=0
  "$HETSCHED" generate --cluster "$HETSCHED_LAB/slurm.conf" --workload "$spec" --seed "$seed" \
    --out "$out/generated.txt" >/dev/null &&
    post_process "$post" < "$out/generated.txt" > "$out/input.txt" &&
    bash "$HERE/fidelity.sh" "$out/input.txt" "$out/run" || rc=$?
  cp "$HETSCHED_LAB/log/slurmctld.log" "$HETSCHED_LAB/slurm.conf" "$out/" 2>/dev/null
  keep_node_logs "$out"
  bash "$HERE/lab.sh" stop >/dev/null
  ((rc == 0)) && write_report "$out"
  echo "$(date -Is) $name: done (rc $rc)"
  return $rc
}

# The nodes' slurmd logs of the run (a few hundred kB), so a difference traced to a node's
# answer can be read later and `fidelity.sh --timing` can read the run again; the lab's
# logs go with the lab.
keep_node_logs() {  # $1: workload dir
  mkdir -p "$1/slurmd-logs"
  cp "$HETSCHED_LAB"/log/slurmd-*.log "$1/slurmd-logs/" 2>/dev/null
  return 0
}

# One line per job and side: id,submit,start,end,cores (jobs.txt gives submit and -n).
job_table() {  # $1: jobs.txt, $2: csv, $3: column of start, $4: column of end
  awk -F, -v s="$3" -v e="$4" 'NR == FNR {
      if ($0 ~ /^#/) next
      n = split($0, w, " "); cores = 1
      for (i = 4; i < n; ++i) if (w[i] == "-n") cores = w[i + 1]
      submit[w[1]] = w[2]; ncores[w[1]] = cores; next }
    FNR > 1 { print $1 "," submit[$1] "," $s "," $e "," ncores[$1] }' "$1" "$2"
}

# mean wait, mean slowdown, makespan, utilization (of ALL_CORES) of one job table.
aggregates() {  # $1: table, $2: all cores
  awk -F, -v all="$2" '{
      w = $3 - $2; r = $4 - $3; sw += w; n++
      sd += (w + (r > 0 ? r : 1)) / (r > 0 ? r : 1)
      if (first == "" || $2 < first) first = $2; if ($4 > last) last = $4
      work += $5 * r }
    END { span = last - first
          printf "%.2f %.3f %d %.4f\n", sw / n, sd / n, span, work / (all * span) }' "$1"
}

# Per-job |Δstart| and node-set agreement, from fidelity.sh's compare inputs.
delta_table() {  # $1: run dir -> id,abs_delta
  awk -F, 'NR == FNR { if (FNR > 1) start[$1] = $2; next }
    FNR > 1 { d = $6 - start[$1]; if (d < 0) d = -d; print $1 "," d }' \
    "$1/real.csv" "$1/model/jobs.csv"
}

# All cores of a lab's slurm.conf (its NodeName=n[1-N] line).
lab_cores() {  # $1: slurm.conf
  awk '/^NodeName=/ { n = $1; sub(/.*\[1-/, "", n); sub(/\].*/, "", n)
      for (i = 1; i <= NF; ++i) { if ($i ~ /^Sockets=/) s = substr($i, 9); if ($i ~ /^CoresPerSocket=/) c = substr($i, 16) }
      print n * s * c }' "$1"
}

# The job file a run's sides ran with (the submit times as the controller took them in).
run_jobs_file() {  # $1: run dir
  if [[ -f "$1/model_jobs.txt" ]]; then echo "$1/model_jobs.txt"; else echo "$1/jobs.txt"; fi
}

# run/aggregates.csv: metric,real,model,relative difference in % (model − real).
write_aggregates() {  # $1: workload dir
  local dir=$1 run=$1/run all_cores real model jobs
  all_cores=$(lab_cores "$dir/slurm.conf")
  jobs=$(run_jobs_file "$run")
  job_table "$jobs" "$run/real.csv" 2 3 > "$run/real_table.csv"
  job_table "$jobs" "$run/model/jobs.csv" 6 7 > "$run/model_table.csv"
  real=$(aggregates "$run/real_table.csv" "$all_cores")
  model=$(aggregates "$run/model_table.csv" "$all_cores")
  paste -d' ' <(printf 'mean_wait\nmean_slowdown\nmakespan\nutilization\n') \
    <(echo "$real" | tr ' ' '\n') <(echo "$model" | tr ' ' '\n') |
    awk '{ printf "%s,%s,%s,%.2f\n", $1, $2, $3, ($2 != 0) ? 100 * ($3 - $2) / $2 : 0 }' > "$run/aggregates.csv"
}

# run/targets.csv: target,measured,required,met (issue 17's targets).
write_targets() {  # $1: workload dir (after write_aggregates and the deltas)
  local run=$1/run
  {
    echo "target,measured,required,met"
    awk -F, '{ n++; if ($2 <= 5) b++ } END { v = 100 * b / n; printf "starts_within_5s_pct,%.1f,80,%s\n", v, (v >= 80) ? "yes" : "no" }' "$run/deltas.csv"
    awk '{ for (i = 1; i <= NF; ++i) { if ($i == "jobs") n = $(i + 1); if ($i == "nodes:") s = $(i + 1) } }
      END { v = 100 * s / n; printf "same_node_set_pct,%.1f,90,%s\n", v, (v >= 90) ? "yes" : "no" }' "$run/summary.txt"
    awk -F, '{ r = ($4 < 0) ? -$4 : $4; printf "%s_rel_pct,%.2f,2,%s\n", $1, $4, r <= 2 ? "yes" : "no" }' "$run/aggregates.csv"
  } > "$run/targets.csv"
}

# Two real runs of one job file (fidelity.sh OUTDIRs), compared job by job as the model
# is compared with a real run, and their aggregates (B against A); utilization from A's
# lab (RUN_A/../slurm.conf).
compare_real() {  # $1, $2: run dirs
  local a=$1 b=$2 all_cores side
  all_cores=$(lab_cores "$a/../slurm.conf")
  awk -F, "$NODE_SET_AWK"'
    NR == FNR { if (FNR > 1) { start[$1] = $2; nodes[$1] = $4 } next }
    FNR > 1 && ($1 in start) {
      d = $2 - start[$1]; if (d < 0) d = -d
      split("", x); split("", y); add_nodes(nodes[$1], x); add_nodes($4, y); print d, same_set(x, y)
    }' "$a/real.csv" "$b/real.csv" | sort -n |
    awk '{ d[++n] = $1; if ($1 <= 5) within++; same += $2 }
      END { printf "jobs %d  same node set %.1f %%  starts <= 5 s %.1f %%  |start difference| median / p90 / max %d / %d / %d s\n",
                   n, 100 * same / n, 100 * within / n, d[int((n + 1) / 2)], d[int(0.9 * n + 0.999)], d[n] }'
  for side in "$a" "$b"; do
    job_table "$(run_jobs_file "$side")" "$side/real.csv" 2 3 > "$side/real_table.csv"
    aggregates "$side/real_table.csv" "$all_cores"
  done | paste -s -d' ' | awk '{ split("mean_wait mean_slowdown makespan utilization", name, " ")
      for (i = 1; i <= 4; ++i) printf "  %s: %s / %s (%+.1f %%)\n", name[i], $i, $(i + 4), 100 * ($(i + 4) - $i) / $i }'
}

write_report() {  # $1: workload dir (with run/ and slurm.conf)
  local dir=$1 run=$1/run opts
  write_aggregates "$dir"
  delta_table "$run" | sort -t, -k2,2n > "$run/deltas.csv"
  write_targets "$dir"
  opts=$(cat "$run/model_options" 2>/dev/null)
  {
    echo "# Fidelity: $(basename "$dir")"
    echo
    echo "Input: \`$(sed -n 2p "$dir/input.txt" | sed 's/^# //')\`; $(cat "$run/summary.txt")"
    echo
    echo "Model: \`hetsched simulate --scheduler backfill${opts:+ $opts}\`"
    echo
    echo "## Per-job |Δstart| (model − real), seconds"
    echo
    awk -F, '{ d[NR] = $2; if ($2 <= 0) z++; if ($2 <= 1) a++; if ($2 <= 5) b++; if ($2 <= 30) c++; if ($2 <= 60) e++ }
      END { n = NR
            printf "| jobs | = 0 | ≤ 1 | ≤ 5 | ≤ 30 | ≤ 60 | median | p90 | max |\n|---|---|---|---|---|---|---|---|---|\n"
            printf "| %d | %d | %d | %d (%.0f %%) | %d | %d | %d | %d | %d |\n", n, z, a, b, 100 * b / n, c, e,
                   d[int((n + 1) / 2)], d[int(0.9 * n + 0.999)], d[n] }' "$run/deltas.csv"
    echo
    echo "## Aggregate metrics"
    echo
    echo "| metric | real Slurm | model | relative difference |"
    echo "|---|---|---|---|"
    awk -F, '{ printf "| %s | %s | %s | %+.1f %% |\n", $1, $2, $3, $4 }' "$run/aggregates.csv"
    echo
    echo "## Targets (issue 17)"
    echo
    echo "| target | measured | required | met |"
    echo "|---|---|---|---|"
    awk -F, 'NR > 1 { printf "| %s | %s | %s %s | %s |\n", $1, $2, ($1 ~ /_rel_/) ? "within ±" : "≥", $3, $4 }' "$run/targets.csv"
    tie_section "$dir"
    echo
    echo "Controller timing: run/controller_timing.csv; per-job deltas: run/deltas.csv."
  } > "$dir/report.md"
}

# When the run misses a per-job target: the one-millisecond races before its first
# difference, and jobs' answers taken in a few ms before a pass, each settled the other way
# and re-modelled (fidelity.sh --ties).
tie_section() {  # $1: workload dir
  local run=$1/run first
  grep -q '^s.*_pct,.*,no$' "$run/targets.csv" || return 0
  first=$(first_difference "$run/per_job.csv")
  [[ -n "$first" ]] || return 0
  "$HERE/fidelity.sh" --ties "$run" "$1/slurm.conf" > /dev/null || return 0
  echo
  echo "## Ties and late answers before the first difference (t = $first s)"
  echo
  if [[ $(wc -l < "$run/ties.csv") -le 1 ]]; then
    echo "No epilog report within a millisecond of a pass in the 5 s before it, and no job's answers"
    echo "taken in at most $TIE_ANSWER_MS ms before one."
    return 0
  fi
  echo "Each row moves one node's epilog message, or all of a job's answers (node \"*\": taken in"
  echo "together after its last), to the other side of a pass that ran within a millisecond of"
  echo "it (answers: up to $TIE_ANSWER_MS ms after them), and replays the model (run/ties.csv;"
  echo "docs/slurm-lab.md, \"One millisecond, either way\" and \"Answers taken in late\")."
  echo
  echo "| pass (s) | job, node, report | sent (s) | model saw it | moved | starts ≤ 5 s | same node set |"
  echo "|---|---|---|---|---|---|---|"
  awk -F, 'NR > 1 { printf "| %s %s | %s, %s, %s | %s | %s | %s ms | %d of %d | %d of %d |\n",
                             $1, $2, $3, $4, $5, $6, $7, $8, $10, $9, $11, $9 }' "$run/ties.csv"
  awk -F, 'NR > 1 && $10 == $9 && $11 == $9 { n++ } END {
    if (n) print "\nOne report settled the other way gives every job its real start and nodes: the run"
    if (n) print "parted from the model where its logs cannot date what the controller saw, not at a rule"
    if (n) print "the model lacks." }' "$run/ties.csv"
}

# One results-table row per workload dir (docs/slurm-lab.md's table).
table() {  # $@: workload dirs
  echo "| workload | jobs | same node set | starts ≤ 5 s | median / p90 / max \|Δstart\| s | mean wait real / model | mean slowdown real / model | makespan real / model | utilization real / model |"
  echo "|---|---|---|---|---|---|---|---|---|"
  local dir
  for dir in "$@"; do
    awk -F, -v name="$(basename "$dir")" '
      FILENAME ~ /deltas/ { d[++n] = $2; next }
      FILENAME ~ /targets/ { if ($1 ~ /same/) same = $2; if ($1 ~ /within/) w5 = $2; next }
      { a[$1] = sprintf("%s / %s (%+.1f %%)", $2, $3, $4) }
      END { printf "| %s | %d | %s %% | %s %% | %d / %d / %d | %s | %s | %s | %s |\n", name, n, same, w5,
              d[int((n + 1) / 2)], d[int(0.9 * n + 0.999)], d[n],
              a["mean_wait"], a["mean_slowdown"], a["makespan"], a["utilization"] }' \
      "$dir/run/deltas.csv" "$dir/run/targets.csv" "$dir/run/aggregates.csv"
  done
}

# Exit status 1 when a workload misses a target (the live test's check).
check() {  # $1: workload dir
  cat "$1/run/targets.csv"
  ! grep -q ',no$' "$1/run/targets.csv"
}

main() {
  local out=$1; shift
  local names=("$@") line rc=0
  mkdir -p "$out"
  ((${#names[@]} == 0)) && for line in "${WORKLOADS[@]}"; do [[ $(field "$line" 0) == short ]] || names+=("$(field "$line" 0)"); done
  for name in "${names[@]}"; do
    line=$(printf '%s\n' "${WORKLOADS[@]}" | awk -F'|' -v n="$name" '$1 == n')
    [[ -n "$line" ]] || { echo "fidelity-suite.sh: workload '$name' unknown (--list)" >&2; return 2; }
    run_workload "$out" "$line" || rc=1
    [[ -f "$out/$name/report.md" ]] && { echo; cat "$out/$name/report.md"; } >> "$out/summary.md"
  done
  return $rc
}

case "${1:-}" in
  --list) printf '%s\n' "${WORKLOADS[@]}" | cut -d'|' -f1,2,5 ;;
  --report) write_report "$2" && cat "$2/report.md" ;;
  --table) shift; table "$@" ;;
  --check) check "$2" ;;
  --compare-real) compare_real "$2" "$3" ;;
  --fg) shift; main "$@" ;;
  "") echo "usage: $0 [--fg] OUTDIR [WORKLOAD...] | --report DIR | --table DIR... | --check DIR | --compare-real RUN_A RUN_B | --list" >&2; exit 2 ;;
  *) mkdir -p "$1"
     nohup "$0" --fg "$@" > "$1/suite.log" 2>&1 &
     echo "fidelity suite running in the background (pid $!); log: $1/suite.log" ;;
esac
