#!/usr/bin/env bash
# The live tests on the project's Slurm lab (127.0.0.1 only), run by scripts/test.sh when it
# runs as root (as CI does); HETSCHED_LIVE=0 skips them, HETSCHED_LIVE=1 asks for them.
# Bounded in time; every daemon started is stopped by pid, even on failure or time-out.
set -uo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
if [[ "${HETSCHED_LIVE:-auto}" == 0 ]]; then echo "live tests: skipped (HETSCHED_LIVE=0)"; exit 0; fi
if [[ "$(id -u)" -ne 0 ]]; then
  [[ "${HETSCHED_LIVE:-auto}" == 1 ]] && { echo "live tests need root" >&2; exit 1; }
  echo "live tests: skipped (they need root to start the Slurm lab)"
  exit 0
fi
bash "$ROOT/scripts/slurm-lab/install.sh" >/dev/null || { echo "cannot install the Slurm lab" >&2; exit 1; }
OUT=${HETSCHED_LIVE_OUT:-$ROOT/build/live}
# Its own directory and ports, so that it never meets a developer's lab (lab.sh's default).
export HETSCHED_LAB=/tmp/hetsched-live-lab LAB_PORT_BASE=${LAB_PORT_BASE:-37000}
status=0
bridge_tests() {
  timeout --signal=TERM --kill-after=30 900 bash "$HERE/bridge_faults.sh" "$OUT/bridge" || status=$?
  # Also after a time-out: the bridge by its pid, then the lab's daemons by theirs.
  [[ -f "$OUT/bridge/bridge.pid" ]] && kill -9 "$(cat "$OUT/bridge/bridge.pid")" 2>/dev/null
  bash "$ROOT/scripts/slurm-lab/lab.sh" stop >/dev/null 2>&1
  if [[ $status -ne 0 ]]; then
    echo "live tests failed (exit $status); logs in $OUT" >&2
    tail -n 40 "$OUT/bridge/bridge.log" >&2 2>/dev/null
  fi
}
if [[ "${HETSCHED_LIVE_FIDELITY_ONLY:-0}" == 1 ]]; then
  echo "live tests: bridge tests skipped (HETSCHED_LIVE_FIDELITY_ONLY=1)"
else
  bridge_tests
fi
# The short fidelity workload, after the bridge's lab has stopped, on a lab directory of its
# own (ports from LAB_PORT_BASE as above); its daemons are stopped by pid afterwards too.
fidelity=0
HETSCHED_LAB=/tmp/hetsched-live-fidelity-lab \
  timeout --signal=TERM --kill-after=30 660 bash "$HERE/fidelity.sh" "$OUT/fidelity" || fidelity=$?
HETSCHED_LAB=/tmp/hetsched-live-fidelity-lab bash "$ROOT/scripts/slurm-lab/lab.sh" stop >/dev/null 2>&1
if [[ $fidelity -ne 0 ]]; then
  echo "live fidelity test failed (exit $fidelity); report and logs in $OUT/fidelity/short" >&2
  status=1
fi
# A 40-run sweep through --executor slurm against the local executor (docs/sweeps.md), on a
# lab directory of its own, stopped by pid afterwards as above.
sweep=0
HETSCHED_LAB=/tmp/hetsched-live-sweep-lab \
  timeout --signal=TERM --kill-after=30 420 bash "$HERE/sweep.sh" "$OUT/sweep" || sweep=$?
HETSCHED_LAB=/tmp/hetsched-live-sweep-lab bash "$ROOT/scripts/slurm-lab/lab.sh" stop >/dev/null 2>&1
if [[ $sweep -ne 0 ]]; then
  echo "live sweep test failed (exit $sweep); outputs in $OUT/sweep" >&2
  status=1
fi
exit $status
