#!/usr/bin/env bash
# demo.sh -- `warpsim demo` exits 0 and reports PASS for each bundled
# workload (vector add, reduction, BFS) with non-zero instruction counts.
# Run by ctest: bash demo.sh WARPSIM SOURCE_DIR
ws="$1"
out="$(mktemp)"; trap 'rm -f "$out"' EXIT
bad=0
fail() { echo "FAIL: $*"; bad=1; }

"$ws" demo >"$out" 2>&1 || fail "demo exited $?"
for k in vector_add reduce_sum bfs_step; do
  grep -Eq "^$k +[^ ]+( [^ ]+)* +PASS +[1-9][0-9]* +[1-9][0-9]*$" "$out" || fail "no PASS row for $k"
done
grep -q "FAIL" "$out" && fail "demo printed FAIL"
[ "$bad" -ne 0 ] && cat "$out"

# the speed benchmark runs (small size) and prints a total line
"$ws" emu-bench --size small >"$out" 2>&1 || fail "emu-bench --size small exited $?"
grep -Eq "^total +[1-9][0-9]* " "$out" || fail "emu-bench printed no total: $(cat "$out")"

[ "$bad" -eq 0 ] && echo "demo: ok"
exit "$bad"
