#!/usr/bin/env bash
# One command on a fresh machine: install dependencies, build, run the main job.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
bash scripts/build.sh
./build/hetsched compare   # the headline experiment: het. ESP, backfill vs IPSCHED vs AUCSCHED1 vs AUCSCHED2
