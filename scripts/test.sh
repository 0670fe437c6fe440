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
stage live bash tests/live/run.sh
stage unit-and-scenario bash -c 'cd build && ctest --output-on-failure -j"$(nproc)"'
stage sanitizers bash scripts/test-sanitizers.sh
