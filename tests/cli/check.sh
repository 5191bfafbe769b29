#!/usr/bin/env bash
# check.sh -- `warpsim check` and `warpsim kernels` on good PTX: every
# bundled kernel file parses, and vector_add.ptx is described correctly.
# Run by ctest: bash check.sh WARPSIM SOURCE_DIR
ws="$1"; src="$2"
out="$(mktemp)"; err="$(mktemp)"; trap 'rm -f "$out" "$err"' EXIT
bad=0
fail() { echo "FAIL: $*"; bad=1; }

va="$src/tests/kernels/vector_add.ptx"
"$ws" check "$va" >"$out" 2>"$err" || fail "check vector_add.ptx exited $?: $(cat "$err")"
grep -q "^$va: OK, 2 kernels$" "$out" || fail "no 'OK, 2 kernels' line: $(cat "$out")"
grep -q "^  vector_add(.u64, .u64, .u64, .u32): 4 params (28 bytes)" "$out" \
  || fail "vector_add signature line wrong: $(cat "$out")"
grep -q "^  vector_add_i32(" "$out" || fail "vector_add_i32 not listed"

"$ws" kernels "$va" >"$out" 2>"$err" || fail "kernels exited $?"
[ "$(cat "$out")" = "$(printf 'vector_add\nvector_add_i32')" ] || fail "kernels printed: $(cat "$out")"
"$ws" check --list "$va" >"$out" 2>"$err" || fail "check --list exited $?"
[ "$(wc -l <"$out")" -eq 2 ] || fail "check --list printed: $(cat "$out")"

"$ws" check "$src/tests/kernels/reduce.ptx" >"$out" 2>&1 || fail "check reduce.ptx failed"
grep -q "reduce_sum(.*static shared 1024 bytes, .maxntid 256,1,1, .minnctapersm 2$" "$out" \
  || fail "reduce_sum shared size / directives: $(cat "$out")"

n=0
for f in "$src"/tests/kernels/*.ptx; do
  n=$((n + 1))
  "$ws" check "$f" >"$out" 2>"$err" || fail "check $(basename "$f") exited $?: $(head -c 400 "$err")"
done
[ "$n" -ge 10 ] || fail "only $n bundled PTX files found"

"$ws" check "$src/does/not/exist.ptx" >"$out" 2>"$err"; rc=$?
[ "$rc" -eq 2 ] || fail "check on a missing file exited $rc, want 2"
[ -s "$err" ] || fail "check on a missing file printed no error"
"$ws" check >"$out" 2>"$err"; rc=$?
[ "$rc" -eq 2 ] || fail "check without FILE exited $rc, want 2"

[ "$bad" -eq 0 ] && echo "check: ok ($n bundled PTX files parse)"
exit "$bad"
