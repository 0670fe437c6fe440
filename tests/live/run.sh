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
export HETSCHED_LAB=/tmp/hetsched-live-lab LAB_PORT_BASE=${LAB_PORT_BASE:-24000}
status=0
bridge_tests() {
  local began=$SECONDS
  timeout --signal=TERM --kill-after=30 900 bash "$HERE/bridge_faults.sh" "$OUT/bridge" || status=$?
  echo "live bridge tests took $(( SECONDS - began )) s"
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
# A live test on a lab directory and ports of its own (LAB_PORT_BASE + OFFSET, so that nothing
# the previous lab left in its ports can meet it), after the previous lab has stopped; its
# daemons are stopped by pid afterwards, also on a time-out.
#   on_own_lab NAME PORT_OFFSET SECONDS SCRIPT   (the test writes into $OUT/NAME)
on_own_lab() {
  local name=$1 ports=$(( LAB_PORT_BASE + $2 )) seconds=$3 script=$4 rc=0 began=$SECONDS
  HETSCHED_LAB=/tmp/hetsched-live-$name-lab LAB_PORT_BASE=$ports \
    timeout --signal=TERM --kill-after=30 "$seconds" bash "$HERE/$script" "$OUT/$name" || rc=$?
  echo "live $name test took $(( SECONDS - began )) s"
  HETSCHED_LAB=/tmp/hetsched-live-$name-lab LAB_PORT_BASE=$ports \
    bash "$ROOT/scripts/slurm-lab/lab.sh" stop >/dev/null 2>&1
  if [[ $rc -ne 0 ]]; then
    echo "live $name test failed (exit $rc); report and logs in $OUT/$name" >&2
    status=1
  fi
}
# The short fidelity workload against the model.
on_own_lab fidelity 300 660 fidelity.sh
# A 40-run sweep through --executor slurm against the local executor (docs/sweeps.md).
on_own_lab sweep 600 420 sweep.sh
exit $status
