#!/usr/bin/env bash
# The test suite again under AddressSanitizer + UndefinedBehaviorSanitizer, in build-asan/.
# Only the test executables (and the libraries they link) are built, never the benchmarks.
# Any sanitizer report fails its test: ASan and UBSan halt on the first error.
#   scripts/test-sanitizers.sh          build the tree, then run the tests
#   scripts/test-sanitizers.sh build    only build it (scripts/test.sh does this, at the lowest
#                                       CPU priority, while the live and plain tests run)
#   scripts/test-sanitizers.sh run      only run the tests of a tree already built
# HETSCHED_SANITIZERS=0 skips the stage. Called by scripts/test.sh after the plain suite.
set -euo pipefail
cd "$(dirname "$0")/.."
mode=${1:-all}
case "$mode" in all | build | run) ;; *) echo "usage: $0 [build|run]" >&2; exit 2 ;; esac
if [[ "${HETSCHED_SANITIZERS:-1}" == 0 ]]; then
  echo "sanitizer tests: skipped (HETSCHED_SANITIZERS=0)"
  exit 0
fi
dir=${HETSCHED_ASAN_DIR:-build-asan}
if [[ "$mode" != run ]]; then
  flags="-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined"
  cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_FLAGS="$flags" >/dev/null
  # The test executables are exactly the targets ctest runs (tests/CMakeLists.txt: test_<area>).
  mapfile -t targets < <(sed -n 's/^hetsched_tests(\([a-z_]*\).*/test_\1/p' tests/CMakeLists.txt)
  echo "sanitizer tests: building ${targets[*]}"
  cmake --build "$dir" -j"$(nproc)" --target "${targets[@]}"
fi
[[ "$mode" == build ]] && exit 0
export ASAN_OPTIONS="halt_on_error=1:abort_on_error=0:detect_leaks=1:strict_string_checks=1:detect_stack_use_after_return=1${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1${UBSAN_OPTIONS:+:$UBSAN_OPTIONS}"
cd "$dir" && ctest --output-on-failure -j"$(nproc)"
