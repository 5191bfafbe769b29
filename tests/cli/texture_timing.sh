#!/usr/bin/env bash
# texture_timing.sh -- tests/cuda/texture.cu (texture and surface objects,
# self-checking against a CPU reference) on the timing model: it must PASS
# under `warpsim exec --timing`, and its texture fetches must reach the L1T
# (L1T accesses > 0 in the timing report), one read per distinct line.
# Run by ctest: bash texture_timing.sh WARPSIM SOURCE_DIR
ws="$1"; src="$2"
. "$src/tests/cli/lib/needs_cuda.sh"
needs_cuda "$ws" "the texture test program"
tmp="$(mktemp -d)"; trap 'rm -rf "$tmp"' EXIT
bad=0
fail() { echo "FAIL: $*"; bad=1; }
"$WARPSIM_NVCC" -cudart shared -o "$tmp/texture" "$src/tests/cuda/texture.cu" >"$tmp/build.log" 2>&1 \
  || { echo "FAIL: nvcc:"; cat "$tmp/build.log"; exit 1; }
LD_PRELOAD="${WS_TEST_PRELOAD:-}" "$ws" exec --timing -- "$tmp/texture" >"$tmp/out" 2>"$tmp/err"; rc=$?
[ "$rc" -eq 0 ] || fail "exit status $rc"
grep -q "texture: PASS" "$tmp/out" || fail "the program did not pass under --timing"
l1t=$(awk '/L1T_total_cache_accesses = / { s += $3 } END { print s + 0 }' "$tmp/err")
[ "$l1t" -gt 0 ] || fail "no L1T accesses in the timing report"
# tex3D with linear filtering reads 8 texels per lane: more L1T accesses than
# the point-sampled tex1Dfetch launch (its first)
first=$(awk '/L1T_total_cache_accesses = / { print $3; exit }' "$tmp/err")
[ "$l1t" -gt "$first" ] || fail "L1T accesses do not grow over the launches ($first, $l1t)"
if [ "$bad" -ne 0 ]; then
  echo "--- stdout"; cat "$tmp/out"; echo "--- stderr"; tail -40 "$tmp/err"
fi
[ "$bad" -eq 0 ] && echo "texture_timing: ok (L1T accesses $l1t)"
exit "$bad"
