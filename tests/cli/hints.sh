#!/usr/bin/env bash
# hints.sh -- `warpsim hints`: the HAWS hint pass on the Fig. 5.1 loop
# (tests/data/haws_fig51.ptx) in v1 and v2, a bundled kernel, JSON, and the
# errors (unknown kernel, missing file, no FILE) with exit 2.
# Run by ctest: bash hints.sh WARPSIM SOURCE_DIR
ws="$1"; src="$2"
out="$(mktemp)"; err="$(mktemp)"; trap 'rm -f "$out" "$err"' EXIT
bad=0
fail() { echo "FAIL: $*"; bad=1; }
has() { grep -qF -- "$1" "$out" || fail "no line '$1' in: $(cat "$out")"; }

f51="$src/tests/data/haws_fig51.ptx"
"$ws" hints "$f51" >"$out" 2>"$err" || fail "hints fig51 exited $?: $(cat "$err")"
has "kernel mm51: 1 stall point, 3 chain entries, 0 renames (v1)"
has "  stall line 42 (pc 26): mul.f64 %rd9, %rd10, %rd9"
has "    waits for: line 35 (pc 19), line 41 (pc 25)"
# v1: I19, I20 (followed back to I1), I1; the conditional I2 ends the chain
[ "$(grep -c '^    line ' "$out")" -eq 3 ] || fail "v1 chain is not 3 entries: $(cat "$out")"
has "    line 44    add.s64 %rd7, %rd7, 1"
has "    line 26    setp.ge.s64 %p0, %rd7, %rd4"
has "no hints: nohint (no stall point)"

"$ws" hints "$f51" mm51 --v2 >"$out" 2>"$err" || fail "hints --v2 exited $?: $(cat "$err")"
has "kernel mm51: 1 stall point, 12 chain entries, 4 renames (v2)"
has "      fall-through:"
for h in 0 1 2 3; do has "rename %rd9 -> h$h"; done
grep -q "nohint" "$out" && fail "KERNEL mm51 also printed nohint"
has "no hints: none"

"$ws" hints "$f51" --json >"$out" 2>"$err" || fail "hints --json exited $?"
has '"variant": "v1"'
has '"name": "mm51"'
has '"why": "no stall point"'

"$ws" hints "$src/tests/kernels/reduce.ptx" >"$out" 2>"$err" || fail "hints reduce.ptx exited $?"
has "kernel reduce_sum: 1 stall point"
has "no hints: reduce_total (every chain empty)"

"$ws" hints "$f51" nosuch >"$out" 2>"$err"; rc=$?
[ "$rc" -eq 2 ] || fail "unknown kernel exited $rc, want 2"
grep -qF "haws_fig51.ptx: no kernel 'nosuch'" "$err" || fail "unknown kernel message: $(cat "$err")"
"$ws" hints "$src/does/not/exist.ptx" >"$out" 2>"$err"; rc=$?
[ "$rc" -eq 2 ] || fail "missing file exited $rc, want 2"
grep -qF "does/not/exist.ptx" "$err" || fail "missing file message: $(cat "$err")"
"$ws" hints >"$out" 2>"$err"; rc=$?
[ "$rc" -eq 2 ] || fail "hints without FILE exited $rc, want 2"

[ "$bad" -eq 0 ] && echo "hints: ok"
exit "$bad"
