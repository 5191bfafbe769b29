#!/usr/bin/env bash
# compare.sh -- `warpsim compare`, the main job: two schedulers on two
# bundled benchmarks (tiny): a row per benchmark with cycles, speedup and
# L1D hit rate per scheduler, the geomean line, a JSON matrix that agrees
# with the table, identical output on a second run, and usage errors
# (unknown scheduler, unknown benchmark) with exit 2.  Needs nvcc and the
# CUDA shims: exits 77 (skipped) without them.
# Run by ctest: bash compare.sh WARPSIM SOURCE_DIR
ws="$1"
. "$(dirname "${BASH_SOURCE[0]}")/lib/needs_cuda.sh"
needs_cuda "$ws" "the benchmarks"
tmp="$(mktemp -d)"; trap 'rm -rf "$tmp"' EXIT
bad=0
fail() { echo "FAIL: $*"; bad=1; }
run() { LD_PRELOAD="${WS_TEST_PRELOAD:-}" "$ws" "$@"; }

run compare --schedulers lrr,gto --bin-dir "$tmp" --json "$tmp/m.json" kmeans btree \
  >"$tmp/out1" 2>"$tmp/err1"; rc=$?
[ "$rc" -eq 0 ] || fail "compare exited $rc: $(tail -3 "$tmp/err1")"
cat "$tmp/out1"
grep -Eq '^benchmark +lrr +gto$' "$tmp/out1" || fail "no header naming the schedulers"
for b in kmeans btree; do
  line="$(grep -E "^$b " "$tmp/out1")"
  [ -n "$line" ] || { fail "no row for $b"; continue; }
  # name, then per scheduler: cycles, speedup, hit rate; lrr's speedup is 1.00x
  echo "$line" | grep -Eq "^$b +[1-9][0-9]* +1\.00x +[01]\.[0-9]{2} +[1-9][0-9]* +[0-9]+\.[0-9]{2}x +[01]\.[0-9]{2}$" \
    || fail "malformed row: $line"
  cyc="$(echo "$line" | awk '{print $2}')"
  grep -q "\"$b\": {" "$tmp/m.json" || fail "$b missing from the JSON"
  sed -n "/\"$b\": {/,/}$/p" "$tmp/m.json" | grep -q "\"lrr\": {\"cycles\": $cyc," \
    || fail "JSON cycles of $b under lrr differ from the table ($cyc)"
done
grep -Eq '^geomean +1\.000x +[0-9]+\.[0-9]{3}x' "$tmp/out1" || fail "no geomean line"

run compare --schedulers lrr,gto --bin-dir "$tmp" kmeans btree >"$tmp/out2" 2>/dev/null
cmp -s "$tmp/out1" "$tmp/out2" || fail "a second run printed something different"

run compare --schedulers lrr,nosuch --bin-dir "$tmp" kmeans >"$tmp/o" 2>"$tmp/e"; rc=$?
[ "$rc" -eq 2 ] || fail "unknown scheduler: exit $rc, want 2"
grep -q "unknown warp scheduler 'nosuch' (valid: " "$tmp/e" || fail "unknown scheduler: message: $(cat "$tmp/e")"
run compare --bin-dir "$tmp" nosuchbench >"$tmp/o" 2>"$tmp/e"; rc=$?
[ "$rc" -eq 2 ] || fail "unknown benchmark: exit $rc, want 2"
[ "$bad" -eq 0 ] && echo "compare: ok"
exit "$bad"
