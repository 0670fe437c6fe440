#!/usr/bin/env bash
# Fault injection for the live bridge tests: stands in for scontrol on the bridge's PATH.
# When HETSCHED_FAULT (a pattern) matches the command line and HETSCHED_FAULT_ONCE (a file)
# does not exist yet, it creates that file and kills the bridge (its parent) with SIGKILL
# before the command runs: a crash at exactly that step of a cycle.
line="$*"
if [[ -n "${HETSCHED_FAULT:-}" && "$line" == *${HETSCHED_FAULT}* && ! -e "${HETSCHED_FAULT_ONCE:-/nonexistent}" ]]; then
  : > "$HETSCHED_FAULT_ONCE"
  kill -9 "$PPID"
  exit 1
fi
exec /usr/bin/scontrol "$@"
