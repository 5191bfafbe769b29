# needs_cuda.sh -- sourced by command-level tests that build CUDA programs:
# `needs_cuda WARPSIM WHAT` exits 77 (CTest: skipped), saying why, when nvcc
# (CUDA 13) is missing or the CUDA shims were not built next to WARPSIM;
# otherwise it exports WARPSIM_NVCC for `warpsim bench`.
needs_cuda() {
  local ws="$1" what="$2"
  local nvcc="${WARPSIM_NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}"
  if [ ! -x "$nvcc" ]; then
    echo "SKIP: nvcc (CUDA 13) not found: $what cannot be built"; exit 77
  fi
  if [ ! -e "$(dirname "$ws")/lib/libcudart.so.13" ]; then
    echo "SKIP: the CUDA shims were not built (CUDA headers or libzstd missing)"; exit 77
  fi
  export WARPSIM_NVCC="$nvcc"
}
