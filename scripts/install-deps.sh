#!/usr/bin/env bash
# Installs hetsched's build and run dependencies from Debian packages (needs root or sudo).
# Skips apt entirely when everything is already installed.
set -euo pipefail
# With arguments: installs those packages instead of the build's own list.
packages=(g++ cmake make pkg-config libgtest-dev zlib1g-dev coinor-libcbc-dev gnuplot-nox
          nlohmann-json3-dev coinor-cbc python3-dev pybind11-dev libjemalloc-dev)
[ $# -gt 0 ] && packages=("$@")
missing=()
for p in "${packages[@]}"; do
  dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all packages present"
  exit 0
fi
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
echo "install-deps: installing ${missing[*]}"
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
