#!/usr/bin/env bash
# run_oob.sh -- `warpsim run` of the out-of-bounds kernel exits 1 with a
# fault message naming kernel, CTA, thread, PTX line and address when the
# reads leave every mapped 2 MiB page (or always, under --memcheck); reads
# outside the allocation but inside mapped pages proceed with one warning.
# Run by ctest: bash run_oob.sh WARPSIM SOURCE_DIR
ws="$1"; src="$2"
out="$(mktemp)"; err="$(mktemp)"; trap 'rm -f "$out" "$err"' EXIT
bad=0
fail() { echo "FAIL: $*"; bad=1; }
ptx="$src/tests/kernels/oob.ptx"
line="$(grep -n 'ld.global' "$ptx" | head -n 1 | cut -d: -f1)"

# in = 16 ints; thread i reads in[i * 1000000]: threads 1.. leave the mapped pages
"$ws" run "$ptx" oob_read --grid 2 --block 32 --arg buf:64:iota32 --arg buf:256 \
  --arg i32:1000000 >"$out" 2>"$err"; rc=$?
[ "$rc" -eq 1 ] || fail "OOB run exited $rc, want 1"
grep -q "oob_read" "$err" || fail "fault message lacks the kernel name"
grep -q "CTA (0,0,0)" "$err" || fail "fault message lacks the CTA"
grep -Eq "thread \([0-9]+,0,0\)" "$err" || fail "fault message lacks the thread"
grep -q "line $line" "$err" || fail "fault message lacks PTX line $line"
grep -Eq "0x[0-9a-f]+" "$err" || fail "fault message lacks an address"
grep -q "an illegal address" "$err" || fail "fault message does not say it left the mapped pages"
[ "$bad" -ne 0 ] && echo "stderr was: $(cat "$err")"

# stride 1000: up to 252 KB past the end, inside mapped pages: runs, warns once
"$ws" run "$ptx" oob_read --grid 2 --block 32 --arg buf:64:iota32 --arg buf:256 \
  --arg i32:1000 >"$out" 2>"$err"; rc=$?
[ "$rc" -eq 0 ] || fail "in-page OOB run exited $rc, want 0: $(cat "$err")"
[ "$(grep -c "warning: kernel 'oob_read'" "$err")" -eq 1 ] \
  || fail "want one warning for the one site: $(cat "$err")"
grep -q "line $line: out-of-bounds global load of 4 bytes at address 0x" "$err" \
  || fail "warning lacks the PTX line / address: $(cat "$err")"
grep -q "; 63 accesses by this instruction" "$err" || fail "warning lacks the count (63): $(cat "$err")"
# the same under --memcheck faults
"$ws" run --memcheck "$ptx" oob_read --grid 2 --block 32 --arg buf:64:iota32 --arg buf:256 \
  --arg i32:1000 >"$out" 2>"$err"; rc=$?
[ "$rc" -eq 1 ] || fail "--memcheck OOB run exited $rc, want 1"
grep -q "out-of-bounds global load of 4 bytes" "$err" || fail "--memcheck: no fault: $(cat "$err")"

# the same kernel in bounds (stride 0) succeeds
"$ws" run "$ptx" oob_read --grid 2 --block 32 --arg buf:64:iota32 --arg buf:256 \
  --arg i32:0 --dump 1:2 >"$out" 2>"$err" || fail "in-bounds run exited $?: $(cat "$err")"

[ "$bad" -eq 0 ] && echo "run_oob: ok"
exit "$bad"
