#!/usr/bin/env bash
# One command on a fresh machine: install dependencies, build the CLI (only what the main job
# needs; scripts/test.sh builds the tests and benchmarks), run the main job.
set -euo pipefail
cd "$(dirname "$0")/.."
start=$SECONDS
echo "== installing Debian packages (scripts/install-deps.sh)"
bash scripts/install-deps.sh
echo "== building the hetsched CLI (cmake progress below)"
bash scripts/build.sh hetsched
echo "== running the headline comparison: hetsched compare"
./build/hetsched compare   # het. ESP, backfill vs IPSCHED vs AUCSCHED1 vs AUCSCHED2
echo "== set-up done in $((SECONDS - start)) s"
