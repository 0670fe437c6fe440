#!/usr/bin/env bash
# One command: install dependencies, build, run the whole test suite (unit + scenario tests),
# then, when run as root (as CI is), the live tests on the Slurm lab (tests/live/run.sh),
# then the suite again under ASan + UBSan (scripts/test-sanitizers.sh; HETSCHED_SANITIZERS=0
# skips it). Any failure in any stage makes the script exit non-zero.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
bash scripts/build.sh
bash tests/live/run.sh
(cd build && ctest --output-on-failure -j"$(nproc)")
bash scripts/test-sanitizers.sh
