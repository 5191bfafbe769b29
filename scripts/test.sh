#!/usr/bin/env bash
# test.sh -- build warpsim and run every test twice: a normal build in
# build/ and an AddressSanitizer+UBSan build in build-asan/ (which leaves
# out the longest timing snapshots and the policy-identity and Slurm
# tests, see asan_skip, and runs each
# benchmark's timing test under 2 or 3 of its 9 settings: run_bench.sh
# dram-sample).  Installs
# missing packages first (scripts/bootstrap.sh).  A ThreadSanitizer build
# in build-tsan/ runs the CUDA host-threads test and two benchmarks on
# the timing model with threads=2.  Exits non-zero if any
# configure, build or test step fails.  Usage: bash scripts/test.sh
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
jobs="${WS_JOBS:-2}"

bash scripts/bootstrap.sh || { echo "test.sh: FAILED (bootstrap)"; exit 1; }

failed=()
run_suite() {   # run_suite NAME BUILD_DIR CTEST_EXCLUDE_REGEX [cmake options...]
  local name="$1" dir="$2" skip="$3"
  shift 3
  echo "==== $name: configure + build ($dir) ===="
  if ! cmake -S . -B "$dir" "$@"; then failed+=("$name:configure"); return; fi
  if ! cmake --build "$dir" -j"$jobs"; then failed+=("$name:build"); return; fi
  echo "==== $name: ctest ===="
  if ! ctest --test-dir "$dir" -j"$jobs" --output-on-failure ${skip:+-E "$skip"}; then
    failed+=("$name:tests")
  fi
}

# ThreadSanitizer cannot be combined with ASan: a third, small build of
# only the CUDA shims, libwarpsim and warpsim runs only the host-threads
# test, with libtsan preloaded into the uninstrumented program (a race
# exits 66).  About 15 s on 2 cores.
run_tsan() {
  local dir=build-tsan
  echo "==== tsan: configure + build ($dir, CUDA shims only) ===="
  if ! cmake -S . -B "$dir" -DWS_SANITIZE_THREAD=ON; then failed+=("tsan:configure"); return; fi
  if ! cmake --build "$dir" -j"$jobs" --target warpsim ws_cudart ws_cuda_driver; then
    failed+=("tsan:build"); return
  fi
  echo "==== tsan: ctest (cuda_threads_default) ===="
  if ! ctest --test-dir "$dir" -R '^cuda_threads_default$' --output-on-failure; then
    failed+=("tsan:tests")
  fi
  # the parallel timing model (docs/parallel-timing.md): SMs ticked on two
  # threads share nothing unguarded, on programs with global and shared
  # atomics and a cross-SM race (the normal build ran them, so their
  # programs are built; bfs, kmeans, mrigridding and 12 more ran clean by
  # hand, 2026-11-27)
  local n bin=build/tests/bench/bin
  for n in histogram gcmark; do
    echo "==== tsan: $n, threads=2 ===="
    if [ ! -x "$bin/$n" ]; then failed+=("tsan:$n(not built)"); continue; fi
    if ! LD_PRELOAD="$(gcc -print-file-name=libtsan.so)" TSAN_OPTIONS=exitcode=66 \
         "$dir/warpsim" exec --timing --config gtx480 --set threads=2 --quiet \
         --lib-dir "$dir/lib" -- "$bin/$n" --size tiny; then
      failed+=("tsan:$n")
    fi
  done
}

# Under the sanitizers the timing-model snapshots of mrigridding, transpose
# and mummer take 350 s of the 20-minute budget (200 s for mrigridding
# alone), reduction and lud another 50 s; they run the same schedulers and memory system as the other
# snapshot tests, only longer, and the normal build still compares all of
# them with their snapshots.
#
# The same holds for the policy-identity tests (two configurations of one
# policy must give equal statistics: mascar_invariants, fetch_dram_equiv,
# owl_single_group, ccws_gto_identity, owl_prefetch_identity; 340 s under
# the sanitizers): the normal build checks the equalities, and the
# sanitizer build still runs every one of those policies on the benchmark
# programs (dram-sample's rotation); threads_identity compares the thread
# counts, which test_timing_threads and the sanitizers' runs of the
# parallel path there and in run_tsan still cover; sweep_figures_more (44 s
# under the sanitizers) draws stacked and time-series figures, whose code
# reproduce (stacked issue slots) and sweep_fig_policy/timeseries_policy
# also run there. And the Slurm test (49 s) spends its
# time in Slurm's daemons; its code runs sanitized in sweep_parallel's
# run-point and sweep-collect.
asan_skip='^(bench_dram_(mrigridding|transpose|mummer|reduction|lud)|cli_(mascar_invariants|fetch_dram_equiv|owl_single_group|ccws_gto_identity|owl_prefetch_identity|sweep_slurm|sweep_figures_more|threads_identity))$'
run_suite normal build ''
run_suite asan build-asan "$asan_skip" -DWS_SANITIZE=ON
run_tsan

if [ "${#failed[@]}" -eq 0 ]; then
  echo "test.sh: ALL PASSED (normal build + sanitizer build + thread sanitizer)"
  exit 0
fi
echo "test.sh: FAILED: ${failed[*]}"
exit 1
