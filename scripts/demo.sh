#!/usr/bin/env bash
# demo.sh -- install missing packages, build warpsim in build/, and run the
# main job: `warpsim demo` runs the bundled kernels (vector add, reduction,
# BFS) on the functional emulator and checks them against CPU references.
# Usage: bash scripts/demo.sh
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
bash scripts/bootstrap.sh
cmake -S . -B build
cmake --build build -j"${WS_JOBS:-2}"
exec build/warpsim demo
