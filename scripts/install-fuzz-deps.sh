#!/usr/bin/env bash
# Installs what scripts/fuzz.sh needs beyond install-deps.sh: clang with libFuzzer and the
# sanitizer runtimes (Debian packages; needs root or sudo). Skips apt when all are present.
set -euo pipefail
here="$(dirname "$0")"
bash "$here/install-deps.sh"
bash "$here/install-deps.sh" clang libclang-rt-dev
