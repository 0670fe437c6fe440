#!/usr/bin/env bash
# Builds the reader fuzz targets (fuzz/, clang + libFuzzer + ASan + UBSan, in build-fuzz/) and
# runs each for SECONDS (default 600), then prints one line per target: executions, time,
# coverage (cov/ft from libFuzzer's final status line), corpus size and findings.
#   scripts/fuzz.sh [SECONDS_PER_TARGET] [TARGET...]      (targets: fuzz/CMakeLists.txt)
# Seeds come from tests/**/data, examples/ and fuzz/seeds/; the growing corpus of each target
# stays in build-fuzz/run/<target>/corpus, findings (crash-*, timeout-*, leak-*, oom-*) in
# build-fuzz/run/<target>/findings. A finding's input belongs in
# tests/io/data/fuzz_regressions/<target>/ once fixed. Exits 1 when any target found something.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-600}
shift || true
all=(slurm_conf gres_conf topology_conf swf swf_gzip job_file sacct scontrol_jobs scontrol_nodes
     scontrol_reservations scontrol_partitions window_file window_solve)
[[ $# -gt 0 ]] && targets=("$@") || targets=("${all[@]}")
dir=${HETSCHED_FUZZ_DIR:-build-fuzz}

build() {
  bash scripts/install-fuzz-deps.sh
  local flags="-fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined"
  CC=clang CXX=clang++ cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DHETSCHED_FUZZ=ON \
    -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_CXX_FLAGS="$flags -fno-omit-frame-pointer" >/dev/null
  cmake --build "$dir" -j"$(nproc)" --target "${targets[@]/#/fuzz_}"
}

# Files that fit target $1, from the tests' data, the examples and fuzz/seeds/<target>.
seed_files() {
  local pattern
  case $1 in
    slurm_conf) pattern='slurm.conf' ;;
    gres_conf) pattern='gres.conf' ;;
    topology_conf) pattern='topology.conf' ;;
    swf | swf_gzip) pattern='*.swf' ;;
    job_file) pattern='*.jobs' ;;
    sacct) pattern='sacct*' ;;
    scontrol_jobs) pattern='listing*.txt' ;;
    scontrol_nodes) pattern='nodes*.txt' ;;
    scontrol_reservations) pattern='reservations*.txt' ;;
    scontrol_partitions) pattern='partitions*.txt' ;;
    window_file | window_solve) pattern='*.json' ;;
  esac
  local seed_dir=$1
  [[ $1 == swf_gzip ]] && seed_dir=swf
  { find tests examples -path '*/data/*' -name "$pattern" -type f -o -path 'examples/*' -name "$pattern" -type f
    [[ -d fuzz/seeds/$seed_dir ]] && find "fuzz/seeds/$seed_dir" -type f
    [[ -d tests/io/data/fuzz_regressions/$1 ]] && find "tests/io/data/fuzz_regressions/$1" -type f
  } | sort -u
}

# The seed directory of target $1: swf_gzip inputs start with a control byte (0: whole stream).
make_seeds() {
  local out=$1/seeds i=0 f
  rm -rf "$out" && mkdir -p "$out"
  while read -r f; do
    i=$((i + 1))
    if [[ $2 == swf_gzip ]]; then { printf '\0'; cat "$f"; } >"$out/seed$i"; else cp "$f" "$out/seed$i"; fi
  done < <(seed_files "$2")
}

# Seconds one input of target $1 may take before libFuzzer reports a timeout. slurm.conf may
# define 100,000 nodes of 255-character names: 0.35 s in Release, up to 14 s under ASan and
# coverage on a loaded machine, so its limit is above that legitimate worst case.
input_timeout() {
  [[ $1 == slurm_conf ]] && echo 30 || echo 10
}

# Runs target $1 for $seconds; prints its summary line; returns 1 on findings.
run_target() {
  local name=$1 work="$dir/run/$1"
  mkdir -p "$work/corpus" "$work/findings"
  make_seeds "$work" "$name"
  local start end
  start=$(date +%s)
  "$dir/fuzz/fuzz_$name" -max_total_time="$seconds" -timeout="$(input_timeout "$name")" -rss_limit_mb=2048 -max_len=16384 \
    -print_final_stats=1 -artifact_prefix="$work/findings/" "$work/corpus" "$work/seeds" \
    >"$work/log" 2>&1 || true
  end=$(date +%s)
  local execs cov ft corp findings
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$work/log" | tail -n 1)
  cov=$(grep -o 'cov: [0-9]*' "$work/log" | tail -n 1 | cut -d' ' -f2)
  ft=$(grep -o 'ft: [0-9]*' "$work/log" | tail -n 1 | cut -d' ' -f2)
  corp=$(find "$work/corpus" -type f | wc -l)
  findings=$(find "$work/findings" -type f | wc -l)
  printf '%-22s execs %10s  time %5ss  cov %5s  ft %6s  corpus %5s  findings %s\n' \
    "$name" "${execs:-?}" "$((end - start))" "${cov:-?}" "${ft:-?}" "$corp" "$findings"
  [[ $findings -eq 0 ]] || { grep -m 3 -E 'ERROR|SUMMARY|terminate' "$work/log" | sed 's/^/    /'; return 1; }
}

build
echo "fuzzing ${#targets[@]} target(s), ${seconds}s each (logs in $dir/run/<target>/log)"
status=0
for t in "${targets[@]}"; do run_target "$t" || status=1; done
exit $status
