#!/usr/bin/env bash
# One command: install dependencies, build, run the whole test suite (unit + scenario tests).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
bash scripts/build.sh
cd build && ctest --output-on-failure -j"$(nproc)"
