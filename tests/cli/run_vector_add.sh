#!/usr/bin/env bash
# run_vector_add.sh -- `warpsim run` of the bundled vector add kernels with
# buffer fillers and --dump shows the right numbers; bad argument specs
# exit 1, usage errors exit 2.
# Run by ctest: bash run_vector_add.sh WARPSIM SOURCE_DIR
ws="$1"; src="$2"
out="$(mktemp)"; err="$(mktemp)"; trap 'rm -f "$out" "$err"' EXIT
bad=0
fail() { echo "FAIL: $*"; bad=1; }
va="$src/tests/kernels/vector_add.ptx"

# c = iota + iota over 64 ints: c[k] = 2k
"$ws" run "$va" vector_add_i32 --grid 1 --block 64 --arg buf:256:iota32 \
  --arg buf:256:iota32 --arg buf:256 --arg i32:64 --dump 2:16 >"$out" 2>"$err" \
  || fail "run vector_add_i32 exited $?: $(cat "$err")"
for k in 0 1 7 15; do
  grep -Eq "^  \[$k\] $((2 * k)) " "$out" || fail "dump line [$k] is not $((2 * k)): $(cat "$out")"
done
grep -q "^  \[16\]" "$out" && fail "--dump 2:16 printed more than 16 words"
grep -q "ctas 1, warps 2, warp instructions [1-9][0-9]*, thread instructions [1-9]" "$out" \
  || fail "no launch counters: $(cat "$out")"

# float version over 100 elements in 2 CTAs, n = 100 < 128 threads
"$ws" run "$va" vector_add --grid 2 --block 64 --arg buf:400:iotaf32 --arg buf:400:fill8:0 \
  --arg buf:512:fill8:255 --arg i32:100 --dump 2:101 --dump 0:4 >"$out" 2>"$err" \
  || fail "run vector_add exited $?: $(cat "$err")"
grep -Eq "^  \[99\] [0-9-]+ 0x42c60000 99$" "$out" || fail "c[99] should be 99.0f: $(grep '\[99\]' "$out")"
grep -Eq "^  \[100\] -1 0xffffffff " "$out" || fail "c[100] beyond n must stay 0xffffffff"
grep -Eq "^  \[3\] [0-9]+ 0x40400000 3$" "$out" || fail "dump of arg 0 word 3 should be 3.0f"

# dynamic shared memory: each CTA reverses its 64 words in place
ds="$src/tests/kernels/dyn_shared.ptx"
"$ws" run "$ds" reverse_block --grid 2 --block 64 --shared 256 --arg buf:512:iota32 \
  --arg i32:128 --dump 0:128 >"$out" 2>"$err" || fail "run reverse_block exited $?: $(cat "$err")"
grep -Eq "^  \[0\] 63 " "$out" && grep -Eq "^  \[64\] 127 " "$out" && grep -Eq "^  \[127\] 64 " "$out" \
  || fail "reverse_block dump wrong: $(head -n 8 "$out")"
"$ws" run "$ds" reverse_block --grid 1 --block 64 --arg buf:256 --arg i32:64 >"$out" 2>"$err"; rc=$?
[ "$rc" -eq 1 ] || fail "reverse_block without --shared exited $rc, want 1 (shared fault)"

# errors: bad spec (1), wrong count (1), unknown kernel (1), missing --grid (2), bad dims (2)
"$ws" run "$va" vector_add_i32 --grid 1 --block 64 --arg buf:256 --arg buf:256 \
  --arg buf:256 --arg i33:4 >"$out" 2>"$err"; rc=$?
[ "$rc" -eq 1 ] || fail "bad --arg spec exited $rc, want 1"
grep -q "bad --arg 'i33:4'" "$err" || fail "bad spec message: $(cat "$err")"
"$ws" run "$va" vector_add_i32 --grid 1 --block 64 --arg buf:256 >"$out" 2>"$err"; rc=$?
[ "$rc" -eq 1 ] || fail "wrong argument count exited $rc, want 1"
grep -q "takes 4 parameters but 1" "$err" || fail "count message: $(cat "$err")"
"$ws" run "$va" vector_add_i32 --grid 1 --block 64 --arg buf:256 --arg buf:256 \
  --arg buf:256 --arg i64:4 >"$out" 2>"$err"; rc=$?
[ "$rc" -eq 1 ] || fail "wrong argument width exited $rc, want 1"
"$ws" run "$va" no_such_kernel --grid 1 --block 1 >"$out" 2>"$err"; rc=$?
[ "$rc" -eq 1 ] || fail "unknown kernel exited $rc, want 1"
grep -q "vector_add_i32" "$err" || fail "unknown kernel does not list the kernels: $(cat "$err")"
"$ws" run "$va" vector_add_i32 --block 64 >"$out" 2>"$err"; rc=$?
[ "$rc" -eq 2 ] || fail "missing --grid exited $rc, want 2"
"$ws" run "$va" vector_add_i32 --grid 0 --block 64 >"$out" 2>"$err"; rc=$?
[ "$rc" -eq 2 ] || fail "--grid 0 exited $rc, want 2"

[ "$bad" -eq 0 ] && echo "run_vector_add: ok"
exit "$bad"
