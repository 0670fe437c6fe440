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
if cmake --build build --target help | grep -qw hetsched_py; then  # configured with Python
  echo "== building the Python module build/python/hetsched (docs/python.md)"
  bash scripts/build.sh hetsched_py
fi
echo "== running the headline comparison: hetsched compare"
./build/hetsched compare   # het. ESP, backfill vs IPSCHED vs AUCSCHED1 vs AUCSCHED2
echo "== set-up done in $((SECONDS - start)) s"
