#!/usr/bin/env bash
# One command: install dependencies, build, run the whole test suite (unit + scenario tests),
# then, when run as root (as CI is), the live tests on the Slurm lab (tests/live/run.sh),
# then the suite again under ASan + UBSan (scripts/test-sanitizers.sh; HETSCHED_SANITIZERS=0
# skips it). Any failure in any stage makes the script exit non-zero.
set -euo pipefail
cd "$(dirname "$0")/.."
# Each stage says how long it took, so that a slow CI run shows where its time went.
stage() {  # NAME COMMAND...
  local name=$1 began=$SECONDS; shift
  "$@"
  echo "== stage $name took $(( SECONDS - began )) s"
}
stage dependencies bash scripts/install-deps.sh
stage build bash scripts/build.sh
# The sanitizer tree (25 minutes of compiling on 2 cores) compiles at the lowest CPU priority
# while the live tests, which mostly wait on Slurm's timers, and the plain tests run. In a
# process group of its own, so that a failing stage stops the whole compile.
sanitizer_log=build/sanitizer-build.log
setsid nice -n 19 bash scripts/test-sanitizers.sh build > "$sanitizer_log" 2>&1 &
sanitizer_build=$!
trap 'kill -- -"$sanitizer_build" 2>/dev/null || true' EXIT
sanitizer_build_done() {
  local rc=0
  wait "$sanitizer_build" || rc=$?
  trap - EXIT
  cat "$sanitizer_log"
  return $rc
}
stage live bash tests/live/run.sh
stage unit-and-scenario bash -c 'cd build && ctest --output-on-failure -j"$(nproc)"'
stage sanitizer-build-wait sanitizer_build_done
stage sanitizers bash scripts/test-sanitizers.sh run
