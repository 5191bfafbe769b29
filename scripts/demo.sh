#!/usr/bin/env bash
# demo.sh -- install missing packages, build warpsim in build/, and run the
# main job: a warp-scheduler comparison (`warpsim compare`) on bundled
# benchmarks on the timing model (gtx480), after `warpsim demo` has checked
# the bundled kernels on the functional emulator.  The comparison builds the
# benchmark programs with nvcc (CUDA 13).
# Usage: bash scripts/demo.sh [warpsim compare options]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
bash scripts/bootstrap.sh
cmake -S . -B build
cmake --build build -j"${WS_JOBS:-2}"
build/warpsim demo
echo
exec build/warpsim compare "$@"
