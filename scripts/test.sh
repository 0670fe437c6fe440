#!/usr/bin/env bash
# One command: install dependencies, build, run the whole test suite (unit + scenario tests),
# then, when run as root (as CI is), the live tests on the Slurm lab (tests/live/run.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
bash scripts/build.sh
bash tests/live/run.sh
cd build && ctest --output-on-failure -j"$(nproc)"
