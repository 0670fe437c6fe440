#!/usr/bin/env bash
# Configures and builds hetsched (Release, assertions on) into build/.
#   scripts/build.sh              everything: the CLI, the test binaries and the benchmarks
#   scripts/build.sh TARGET...    only those targets (setup.sh builds just `hetsched`)
set -euo pipefail
cd "$(dirname "$0")/.."
echo "configuring build/ (Release)"
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
if [[ $# -gt 0 ]]; then
  cmake --build build -j"$(nproc)" --target "$@"
else
  cmake --build build -j"$(nproc)"
fi
