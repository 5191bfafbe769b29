#!/usr/bin/env bash
# bootstrap.sh -- install the Debian/Ubuntu packages warpsim needs to build
# and test.  Idempotent: packages already installed are skipped, and when
# nothing is missing it neither runs apt-get nor asks for sudo.
# Usage: bash scripts/bootstrap.sh
set -euo pipefail

# python3: a few command-level tests read JSON reports with it;
# gnuplot-nox: `warpsim correlate --plot` draws its scatter plot with it;
# slurmctld, slurmd, slurm-client, munge: tests/cli/sweep_slurm.sh starts a
# private single-node Slurm for `warpsim sweep --backend slurm` (it runs
# nothing until the test starts it, with its own config, key and ports; on
# a machine with systemd the packages' own munge service may start);
# parallel: GNU parallel, for `warpsim sweep --backend parallel`
packages=(build-essential cmake pkg-config libcmocka-dev libzstd-dev libjansson-dev
          clang libclang-rt-14-dev python3 gnuplot-nox
          slurmctld slurmd slurm-client munge parallel)

missing=()
for p in "${packages[@]}"; do
  status="$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)"
  if [ "$status" != "install ok installed" ]; then
    missing+=("$p")
  fi
done

if [ "${#missing[@]}" -eq 0 ]; then
  echo "bootstrap: all packages present"
  exit 0
fi

if [ "$(id -u)" -eq 0 ]; then
  sudo=()
elif command -v sudo >/dev/null 2>&1; then
  sudo=(sudo)
else
  echo "bootstrap: need root or sudo to install: ${missing[*]}" >&2
  exit 1
fi

echo "bootstrap: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
"${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update
"${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${missing[@]}"
