#!/usr/bin/env bash
# bench_characterize.sh -- `warpsim bench run` and `bench characterize` on
# two small benchmarks (triad: symmetric streaming, no barriers; nw:
# barriers and unequal warps).  Needs nvcc and the CUDA shims: exits 77
# (skipped) without them.  In the sanitizer build $WS_TEST_PRELOAD holds the
# ASan runtime, preloaded because nvcc's output is not instrumented.
# Run by ctest: bash bench_characterize.sh WARPSIM SOURCE_DIR
ws="$1"
. "$(dirname "${BASH_SOURCE[0]}")/lib/needs_cuda.sh"
needs_cuda "$ws" "the benchmark programs"
tmp="$(mktemp -d)"; trap 'rm -rf "$tmp"' EXIT
out="$tmp/out"; err="$tmp/err"
bad=0
fail() { echo "FAIL: $*"; bad=1; }
run() { LD_PRELOAD="${WS_TEST_PRELOAD:-}" "$ws" "$@" >"$out" 2>"$err"; }

run bench run triad --size tiny --bin-dir "$tmp" --per-kernel --sms 4; rc=$?
[ "$rc" -eq 0 ] || fail "bench run triad exited $rc"
grep -q "^PASS triad size=tiny " "$out" || fail "no PASS line"
grep -Eq "^warpsim bench: triad: 2 launches, [1-9][0-9]* warp instructions, [1-9][0-9]* memory .* 0 barrier, warp length [1-9][0-9]*\.\.[1-9]" "$out" \
  || fail "no statistics summary"
grep -q "^warpsim: launch 1: " "$err" || fail "--per-kernel did not reach warpsim exec"
grep -q "on sm_86, 4 SMs" "$err" || fail "--sms did not reach warpsim exec"
grep -q "building triad" "$err" || fail "triad was not built"
run bench run triad --size tiny --bin-dir "$tmp" --quiet --seed 7; rc=$?
[ "$rc" -eq 0 ] || fail "second run exited $rc"
grep -q "building" "$err" && fail "an up-to-date program was rebuilt"
grep -q "^PASS triad size=tiny seed=7 " "$out" || fail "--seed did not reach the program"

run bench characterize --size tiny --bin-dir "$tmp" triad nw; rc=$?
[ "$rc" -eq 0 ] || fail "characterize exited $rc: $(cat "$err")"
num='[0-9]+'; f='[0-9]+\.[0-9]+'
grep -Eq "^triad +\(all\) +$num +$num +$f +$f +0 +1\.000 sym +yes$" "$out" \
  || fail "triad row"
grep -Eq "^ +vec_add +$num +$num +$f +$f +0 +1\.000 sym *$" "$out" || fail "vec_add row"
grep -Eq "^nw +\(all\) +$num +$num +$f +$f +[1-9][0-9]* +$f asym +yes$" "$out" \
  || fail "nw row"
grep -q "^2 benchmarks: 2 match their manifest tags, 0 differ, 0 failed$" "$out" \
  || fail "summary line"
run bench characterize --size tiny --bin-dir "$tmp" nosuch; rc=$?
[ "$rc" -eq 2 ] || fail "unknown name exited $rc, want 2"

if [ "$bad" -ne 0 ]; then echo "--- stdout"; cat "$out"; echo "--- stderr"; cat "$err"; fi
[ "$bad" -eq 0 ] && echo "bench characterize: ok"
exit "$bad"
