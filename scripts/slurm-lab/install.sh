#!/usr/bin/env bash
# Debian packages for the real-Slurm lab (lab.sh): Slurm 22.05 controller, node daemon,
# client commands and munge. Not needed to build or test hetsched itself.
set -euo pipefail
packages=(slurmctld slurmd slurm-client munge)
missing=()
for p in "${packages[@]}"; do
  dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && { echo "slurm-lab install: all packages present"; exit 0; }
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
