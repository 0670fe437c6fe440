#!/usr/bin/env bash
# Installs what scripts/fuzz.sh needs beyond install-deps.sh: clang with libFuzzer and the
# sanitizer runtimes (Debian packages; needs root or sudo). Skips apt when all are present.
set -euo pipefail
bash "$(dirname "$0")/install-deps.sh"
packages=(clang libclang-rt-dev)
missing=()
for p in "${packages[@]}"; do
  dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "install-fuzz-deps: all packages present"
  exit 0
fi
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
echo "install-fuzz-deps: installing ${missing[*]}"
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
