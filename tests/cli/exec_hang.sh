#!/usr/bin/env bash
# exec_hang.sh -- CUDA programs whose kernels wait for each other, under
# `warpsim exec`, functional and on the timing model: a grid-wide handoff
# between CTAs and a spin between two warps finish with the right results;
# a kernel spinning forever stops at --progress-limit with the program
# seeing cudaErrorLaunchTimeout and a dump of where each warp is on stderr;
# Ctrl-C (SIGINT) without a limit prints the dump and exits 130.
# Skipped (77) without nvcc or the shims.  Run by ctest: bash exec_hang.sh WARPSIM SOURCE_DIR
ws="$1"; src="$2"
. "$src/tests/cli/lib/needs_cuda.sh"
needs_cuda "$ws" "tests/cuda/spin_wait.cu"
tmp="$(mktemp -d)"; trap 'rm -rf "$tmp"' EXIT
export TMPDIR="$tmp"    # the PTX a stopped kernel keeps goes with it
bad=0
fail() { echo "FAIL: $*"; bad=1; }
bin="$tmp/spin_wait"
"$WARPSIM_NVCC" -cudart shared -o "$bin" "$src/tests/cuda/spin_wait.cu" >"$tmp/build.log" 2>&1 \
  || { echo "FAIL: nvcc:"; cat "$tmp/build.log"; exit 1; }
run() { LD_PRELOAD="${WS_TEST_PRELOAD:-}" "$ws" exec "$@"; }

for mode in "" "--timing"; do
  m="${mode:-functional}"
  run $mode --quiet -- "$bin" ok >"$tmp/out" 2>"$tmp/err"; rc=$?
  [ "$rc" -eq 0 ] || fail "$m: spin_wait ok exited $rc"
  grep -q "spin_wait: PASS" "$tmp/out" || fail "$m: no PASS: $(cat "$tmp/out")"

  run $mode --quiet --progress-limit 200000 -- "$bin" hang >"$tmp/out" 2>"$tmp/err"; rc=$?
  [ "$rc" -eq 3 ] || fail "$m: spin_wait hang exited $rc, want 3"
  grep -q "spin_wait: cudaErrorLaunchTimeout" "$tmp/out" \
    || fail "$m: the program did not see cudaErrorLaunchTimeout: $(cat "$tmp/out")"
  grep -q "no progress" "$tmp/err" || fail "$m: no 'no progress' on stderr"
  n="$(grep -Ec "PTX line [0-9]+ \((ld|setp|bra)\)" "$tmp/err")"
  [ "$n" -eq 8 ] || fail "$m: $n warps in the dump, want 8"

  set -m
  run $mode --quiet --progress-limit 0 -- "$bin" hang >"$tmp/out" 2>"$tmp/err" &
  pid=$!
  set +m
  sleep 2
  kill -INT -- "-$pid"   # the whole job, as Ctrl-C signals the foreground group
  wait "$pid"; rc=$?
  [ "$rc" -eq 130 ] || fail "$m: SIGINT exited $rc, want 130"
  grep -q "interrupted (SIGINT)" "$tmp/err" || fail "$m: no 'interrupted' on stderr"
  n="$(grep -Ec "PTX line [0-9]+ \((ld|setp|bra)\)" "$tmp/err")"
  [ "$n" -eq 8 ] || fail "$m: $n warps in the SIGINT dump, want 8"
  [ "$bad" -ne 0 ] && { echo "--- stderr"; cat "$tmp/err"; break; }
done

[ "$bad" -eq 0 ] && echo "exec_hang: ok"
exit "$bad"
