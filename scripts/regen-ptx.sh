#!/usr/bin/env bash
# regen-ptx.sh -- regenerate every tests/kernels/*.ptx from its .cu with nvcc.
# The .ptx files are committed, so this is needed only after editing a .cu;
# it requires CUDA 13 (nvcc), not a GPU.  Usage: bash scripts/regen-ptx.sh
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
nvcc="${NVCC:-}"
if [ -z "$nvcc" ]; then
  if command -v nvcc >/dev/null 2>&1; then nvcc="$(command -v nvcc)"
  else nvcc=/usr/local/cuda/bin/nvcc; fi
fi
if [ ! -x "$nvcc" ]; then
  echo "regen-ptx.sh: nvcc not found (set NVCC=/path/to/nvcc)" >&2
  exit 1
fi
n=0
for cu in "$root"/tests/kernels/*.cu; do
  ptx="${cu%.cu}.ptx"
  "$nvcc" -ptx -O3 -arch=sm_75 -o "$ptx" "$cu"
  echo "  $(basename "$cu") -> $(basename "$ptx")"
  n=$((n + 1))
done
echo "regen-ptx.sh: regenerated $n PTX files with $("$nvcc" --version | tail -n 2 | head -n 1)"
